/// The processor's spin-wait hint (x86 `pause`, Arm `yield`): a thread polling a flag in a loop tells the core it waits,
/// so that a hyperthread sharing the core runs at nearly full speed meanwhile.
static inline void a11y_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}
