// Lists every event of one room with the service owner's Node server SDK
// (@100mslive/server-sdk), as a script written against the hosted API would, and prints one JSON
// line per event on stdout, then "count: N" on stderr. Nothing in it knows of callscope: only
// where the requests go is set, through the proxy variables the SDK's HTTP client (axios)
// honours, since the SDK has no base-URL setting and always asks https://api.100ms.live/v2/...
//
//   HMS_BASE_URL                  scheme://host:port of the server to ask (default: the hosted API)
//   HMS_ROOM_ID or HMS_ROOM_NAME  the room (a name is looked up with hms.rooms.retrieveByName)
//   HMS_ACCESS_KEY, HMS_SECRET    read by the SDK itself, which mints its management token
//
// It pages with hms.api.get, following each page's "next" until it is empty: the SDK's own
// event iterators stop after the first page unless a page also carries "last", which the events
// endpoint does not send.
//
// Exit: 0 done, 1 the server or the connection failed, 2 usage.
import HMS from "@100mslive/server-sdk";

function fail(status, message) {
  process.stderr.write(`page_events: ${message}\n`);
  process.exit(status);
}

const base = (process.env.HMS_BASE_URL ?? "").trim();
if (base) {
  const url = new URL(base);
  process.env.https_proxy = url.origin;
  process.env.HTTPS_PROXY = url.origin;
  delete process.env.no_proxy;
  delete process.env.NO_PROXY;
}
if (!process.env.HMS_ACCESS_KEY || !process.env.HMS_SECRET)
  fail(2, "set HMS_ACCESS_KEY and HMS_SECRET");

const hms = new HMS.SDK();
// The SDK logs to stdout unless told otherwise: stdout is for the events.
hms.setLogLevel("silent");

const sdkError = (err) =>
  err && typeof err === "object" && "message" in err
    ? `${err.code ?? ""} ${err.name ?? ""}: ${err.message}`.trim()
    : String(err);

let count = 0;
try {
  let roomId = (process.env.HMS_ROOM_ID ?? "").trim();
  const roomName = (process.env.HMS_ROOM_NAME ?? "").trim();
  if (!roomId && roomName) roomId = (await hms.rooms.retrieveByName(roomName)).id;
  if (!roomId) fail(2, "set HMS_ROOM_ID or HMS_ROOM_NAME");
  const params = { room_id: roomId, limit: 100 };
  for (;;) {
    const page = await hms.api.get("/analytics/events", params);
    if (!page || !Array.isArray(page.events)) throw new Error("a page without events");
    for (const event of page.events) {
      process.stdout.write(`${JSON.stringify(event)}\n`);
      count++;
    }
    if (!page.next) break;
    params.start = page.next;
  }
} catch (err) {
  fail(1, `${sdkError(err)} (after ${count} events)`);
}
process.stderr.write(`count: ${count}\n`);
