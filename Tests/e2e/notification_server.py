#!/usr/bin/python3
"""A desktop notification server for tests: owns org.freedesktop.Notifications on the session bus and appends
every Notify / CloseNotification call to a JSON-lines file. Debian's python3-dbus and python3-gi (/usr/bin/python3)."""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

LOG = sys.argv[1]


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.next_id = 0

    def record(self, entry):
        with open(LOG, "a") as f:
            f.write(json.dumps(entry) + "\n")

    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces_id, icon, summary, body, actions, hints, timeout):
        nid = int(replaces_id) or self.next_id + 1
        self.next_id = max(self.next_id, nid)
        self.record({"method": "Notify", "app": str(app), "replaces_id": int(replaces_id), "id": nid,
                     "summary": str(summary), "body": str(body), "urgency": int(hints.get("urgency", -1))})
        return dbus.UInt32(nid)

    @dbus.service.method("org.freedesktop.Notifications", in_signature="u", out_signature="")
    def CloseNotification(self, nid):
        self.record({"method": "CloseNotification", "id": int(nid)})

    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body"]

    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("a11yd-test", "a11yd", "1", "1.2")


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.Notifications", bus)
server = Notifications(bus)
open(LOG, "a").close()
print("ready", flush=True)
GLib.MainLoop().run()
