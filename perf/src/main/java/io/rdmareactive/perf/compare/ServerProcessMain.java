package io.rdmareactive.perf.compare;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.LocalRegion;
import io.rdmareactive.RegionAccess;
import io.rdmareactive.RegionDescriptor;
import io.rdmareactive.StreamHandler;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The rma workload's server, the main class of a JVM of its own ({@link ServerProcess} starts it): a region server
 * whose handler registers a region ({@link RegionLayout}) on the caller's connection with every remote right, fills
 * it and answers its descriptor; and one echo server ({@link Answers#ECHO}) per request-response size. It prints
 * {@code ready} once they are bound, answers each {@code meter} line on standard input with this process's
 * {@link ProcessMeter} reading, and closes everything and exits when standard input ends.
 *
 * <p>Arguments: provider, idle strategy, shm directory or {@code -}, verbs base address or {@code -}, the region
 * server's address, the region's span (see {@link RegionLayout}), then {@code address=size} per echo server.
 */
public final class ServerProcessMain {

    static final String READY = "ready";
    static final String METER = "meter";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ServerProcessMain() {
    }

    public static void main(final String[] args) throws Exception {
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        final ReactiveTransport transport = new ReactiveTransport(args[0], Idle.parse(args[1]),
            args[2].equals("-") ? null : Path.of(args[2]), args[3].equals("-") ? null : args[3]);
        final RegionLayout layout = new RegionLayout(Long.parseLong(args[5]));
        final List<DisposableServer> servers = new ArrayList<>();
        try {
            servers.add(transport.server(args[4], 4096).handleStreams(regions(layout)).bind().block(TIMEOUT));
            for (int i = 6; i < args.length; i++) {
                final String[] echo = args[i].split("=", 2);
                servers.add(transport.server(echo[0], Integer.parseInt(echo[1])).handleStreams(Answers.ECHO).bind()
                    .block(TIMEOUT));
            }
            out.println(READY);
            final BufferedReader commands = new BufferedReader(new InputStreamReader(System.in,
                StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                if (line.equals(METER)) {
                    final ProcessMeter.Reading reading = ProcessMeter.read();
                    out.println(METER + " " + reading.nanoTime() + " " + reading.cpuNanos() + " "
                        + reading.allocatedBytes() + " " + reading.gcCount());
                }
            }
        } finally {
            for (final DisposableServer server : servers) {
                server.dispose();
                server.onDispose().onErrorComplete().block(TIMEOUT);
            }
        }
        System.exit(0);
    }

    /** @return the region server's handler: any request registers a region on the caller's connection */
    private static StreamHandler regions(final RegionLayout layout) {
        return (kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next()
            .map(request -> register(in.connection(), layout)), RegionDescriptor.CODEC);
    }

    private static RegionDescriptor register(final Connection connection, final RegionLayout layout) {
        final LocalRegion region = connection.registerRegion(layout.length(), RegionAccess.REMOTE_READ,
            RegionAccess.REMOTE_WRITE, RegionAccess.REMOTE_ATOMIC);
        layout.fill(region.buffer());
        connection.onDispose().subscribe(null, error -> region.close(), region::close);
        return region.descriptor();
    }
}
