package io.rdmareactive.perf.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Writes {@code report.html}: the environment, how each transport was set up, the tables and the plots. */
final class Report {

    private Report() {
    }

    static String bytes(final int size) {
        if (size >= 1 << 20 && size % (1 << 20) == 0) {
            return (size >> 20) + " MiB";
        }
        if (size >= 1024 && size % 1024 == 0) {
            return (size >> 10) + " KiB";
        }
        return size + " B";
    }

    static void write(final Results results, final Map<String, String> charts, final Path file) throws IOException {
        final StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rdma-reactive transport "
            + "comparison</title><style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}"
            + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
            + "text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:1em;overflow-x:auto;"
            + "font-size:12px}img{max-width:100%;border:1px solid #eee}</style></head><body>\n");
        html.append("<h1>rdma-reactive transport comparison</h1>\n<p>All absolute figures are <b>this machine's</b>, "
            + "measured in one run with both peers of every transport in one JVM (two or more threads); ratios "
            + "compare transports of the same run. Every figure is in <code>results.json</code> next to this "
            + "file.</p>\n");
        html.append("<h2>Environment</h2>\n").append(table(results.environment));
        html.append("<h2>Settings</h2>\n").append(table(results.settings));
        html.append("<h2>Transports</h2>\n").append(table(results.transports));
        html.append("<h2>Ratios</h2>\n<pre>").append(escape(Tables.closing(results))).append("</pre>\n");
        if (!results.latency.isEmpty()) {
            html.append("<h2>Round-trip latency</h2>\n<p>One message in flight. Closed loop: the next message "
                + "leaves when the echo is back. Fixed rate: messages are due at a fixed interval and each round trip "
                + "is measured from when it was due (corrected for coordinated omission; the uncorrected figures are "
                + "in results.json). CPU and allocation are per round trip, whole JVM.</p>\n<pre>")
                .append(escape(Tables.latency(results))).append("</pre>\n");
            images(html, charts, "latency-");
        }
        if (!results.throughput.isEmpty()) {
            html.append("<h2>Throughput</h2>\n<p>Producers as fast as each transport accepts; consumers check every "
                + "sequence number. CPU time and heap allocation are whole-process figures divided by the messages "
                + "received in the measured window.</p>\n<pre>").append(escape(Tables.throughput(results)))
                .append("</pre>\n");
            images(html, charts, "throughput-");
        }
        if (!results.memcpy.isEmpty()) {
            html.append("<h2>memcpy baseline</h2>\n<p>One thread copying each message size from one native buffer "
                + "into the next of a ring of native buffers (8 MiB or more, so not all in cache), as fast as it can: "
                + "what moving the bytes alone costs on this machine, beside the throughput above.</p>\n<pre>")
                .append(escape(Tables.memcpy(results))).append("</pre>\n");
        }
        if (!results.requestResponse.isEmpty()) {
            html.append("<h2>Request-response</h2>\n<p><code>Connection.requestResponse</code> against a server whose "
                + "<code>StreamHandler</code> answers each request with its bytes, on one connection. One in flight: "
                + "each call is issued when the previous one is answered. N in flight: <code>flatMap(call, N)</code> "
                + "for the measured time. Round trips from a call's first attempt to its answer; a call refused with "
                + "<code>RdmaStreamsBusyException</code> (every request stream busy) is counted and tried again "
                + "after 100 us. Every answer is checked. CPU and allocation are per call, whole JVM.</p>\n<pre>")
                .append(escape(Tables.requestResponse(results))).append("</pre>\n");
            images(html, charts, "request-response-");
        }
        if (!results.connections.isEmpty()) {
            html.append("<h2>Connections</h2>\n<p>K connections from this JVM to one server, opened one after the "
                + "other (each within 10 s, all within the opening deadline), then round-robin request-response over "
                + "them, one call in flight at a time. Threads are the JVM's live platform threads and those named "
                + "<code>rdma-</code> (the library's, both sides); RSS is the whole process's. A point whose "
                + "connections did not all open in time is marked failed and not measured.</p>\n<pre>")
                .append(escape(Tables.connections(results))).append("</pre>\n");
        }
        if (!results.rma.isEmpty()) {
            html.append("<h2>Remote memory (rma)</h2>\n<p>One-sided reads, writes and fetch-and-adds through "
                + "<code>RemoteRegion</code> against a region a server in a JVM of its own registered for this "
                + "connection, and request-response calls of the same sizes to an echo server of that process, on the "
                + "same transport. One in flight: each operation is subscribed when the previous one completed; p50 "
                + "and p99 from subscription to completion. Pipelined: <code>RemoteRegion.execute</code> with up to N "
                + "in flight. Server CPU/op is the server process's CPU time over the measured window divided by the "
                + "operations, client CPU/op this process's; each process reads its own counters. Every read is "
                + "checked against the bytes the server put there, every write by reading the area back, every "
                + "fetch-and-add's value; a phase whose check fails has no row.</p>\n<pre>")
                .append(escape(Tables.rma(results))).append("</pre>\n");
        }
        if (!results.incast.isEmpty()) {
            html.append("<h2>Incast</h2>\n<p>N senders, each a thread with a stream of its own, into one receiver "
                + "(one server of the transport), each as fast as back-pressure lets it; beside them a stream of "
                + "32-byte probes at a fixed rate into the same receiver. Shares are each sender's part of the "
                + "messages received in the measured window; Jain's index is (sum x)^2 / (n sum x^2) over the "
                + "senders' rates (1: all equal; 1/n: one took all). A probe's latency runs from when it was due "
                + "to its arrival, so a probe held back by push-back counts its wait. Every message is checked "
                + "(length, sequence number) and, after the window, every one sent must have arrived; lost counts "
                + "what did not, out-of-order and wrong ones included.</p>\n<pre>")
                .append(escape(Tables.incast(results))).append("</pre>\n");
            images(html, charts, "incast-");
        }
        if (!results.allToAll.isEmpty()) {
            html.append("<h2>All-to-all</h2>\n<p>Every party sends to every other: each party's receiving side is "
                + "one server of the transport with a stream from each other party, its sending side one thread "
                + "that offers to its destinations in turn, passing over one that pushes back. Aggregate messages "
                + "and bytes per second of the measured window, and the slowest and fastest ordered pair. Every "
                + "message is checked (length, sequence number per pair).</p>\n<pre>")
                .append(escape(Tables.allToAll(results))).append("</pre>\n");
            images(html, charts, "all-to-all-");
        }
        if (!results.peerKill.isEmpty()) {
            html.append("<h2>Peer-kill</h2>\n<p>Peers in JVMs of their own, every one connected to every other and "
                + "sending it sequence-numbered messages as fast as it is let; after a measured window the last peer "
                + "is killed with SIGKILL. Detection is the time from the kill to the first failure the survivor's "
                + "API reported about the killed peer (an inbound stream's error or end, a send's error, a "
                + "connection's end), on the machine's monotonic clock. Before and after are the messages per "
                + "second a survivor received from the other survivors in a window before the kill and one after "
                + "its report. Every stream is checked: lost counts sequence numbers skipped plus messages another "
                + "survivor sent that never arrived, dup those repeated or out of order; both must be 0.</p>\n<pre>")
                .append(escape(Tables.peerKill(results))).append("</pre>\n");
        }
        if (!results.allReduce.isEmpty()) {
            html.append("<h2>Ring all-reduce</h2>\n<p>The samples module's ring all-reduce (reduce-scatter then "
                + "all-gather of float vectors, each chunk pipelined in slices of at most 256 KiB) with its ranks as "
                + "threads of this JVM, each with a link of its own to its right and left neighbours over the "
                + "transport: the same harness code over every transport, only the link differs. Time is the "
                + "slowest rank's average over the timed all-reduces; algbw is the size over the time and busbw "
                + "algbw x 2(n-1)/n, as nccl-tests reports them. After the timed runs one more is checked element by "
                + "element on every rank; #wrong counts the elements that differed from the exact sum, and a row "
                + "with any is a failure, not a figure.</p>\n<pre>")
                .append(escape(Tables.allReduce(results))).append("</pre>\n");
            images(html, charts, "all-reduce-");
        }
        if (!results.backpressure.isEmpty()) {
            html.append("<h2>Backpressure</h2>\n<p>A producer as fast as the transport lets it against a consumer "
                + "throttled to a set rate. Lost messages are counted from sequence numbers after the throttle is "
                + "lifted and the backlog drained.</p>\n<pre>").append(escape(Tables.backpressure(results)))
                .append("</pre>\n");
            images(html, charts, "backpressure-");
        }
        if (!results.failures.isEmpty()) {
            html.append("<h2>Not measured</h2>\n<table><tr><th>transport</th><th>workload</th><th>why</th></tr>\n");
            for (final Results.Failure failure : results.failures) {
                html.append("<tr><td>").append(escape(failure.transport())).append("</td><td>")
                    .append(escape(failure.workload())).append("</td><td>").append(escape(failure.reason()))
                    .append("</td></tr>\n");
            }
            html.append("</table>\n");
        }
        html.append("</body></html>\n");
        Files.writeString(file, html, StandardCharsets.UTF_8);
    }

    private static void images(final StringBuilder html, final Map<String, String> charts, final String prefix) {
        charts.forEach((name, caption) -> {
            if (name.startsWith(prefix)) {
                html.append("<figure><img src=\"").append(name).append("\" alt=\"").append(escape(caption))
                    .append("\"><figcaption>").append(escape(caption)).append("</figcaption></figure>\n");
            }
        });
    }

    private static String table(final Map<String, ?> rows) {
        final StringBuilder html = new StringBuilder("<table>\n");
        rows.forEach((key, value) -> {
            html.append("<tr><th>").append(escape(key)).append("</th><td>");
            if (value instanceof Map<?, ?> map) {
                map.forEach((k, v) -> html.append(escape(String.valueOf(k))).append(": ")
                    .append(escape(String.valueOf(v))).append("<br>"));
            } else if (value instanceof String text && text.contains("\n")) {
                html.append("<pre>").append(escape(text)).append("</pre>");
            } else {
                html.append(escape(String.valueOf(value)));
            }
            html.append("</td></tr>\n");
        });
        return html.append("</table>\n").toString();
    }

    static String escape(final String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static String format(final double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
