package io.rdmareactive;

import io.rdmareactive.codec.Codecs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The other JVM of the two-process API tests ({@link TwoProcessTest}); it reports on stdout, one line per event.
 *
 * <ul>
 *   <li>{@code stream-forever <directory> <address>}: a server whose handler sends "0", "1", "2", ... to each client
 *   for as long as it is asked; prints {@code LISTENING} once bound, then waits to be killed;</li>
 *   <li>{@code send-checked <directory> <address> <connections> <messages per connection>}: connects that many
 *   clients and sends {@link CheckedMessages} on all of them at once; prints {@code SENT} when every send completed,
 *   disposes the connections and exits 0 (1 on any failure, with the error).</li>
 *   <li>{@code count-server <directory> <address>}: a server that reads each connection's messages (strings),
 *   printing {@code GOT <n>} for each, and {@code ENDED <count> <error or "completed">} when the connection's inbound
 *   ends; prints {@code LISTENING} once bound, then waits to be killed;</li>
 *   <li>{@code reassembly-server <directory> <address>}: a server that answers each request channel with
 *   {@code got <bytes>} for each message, and each request with its upper case; prints {@code LISTENING} once bound,
 *   and {@code INBOUND FAILED <message>} for each inbound stream that ends with an error; waits to be killed.</li>
 * </ul>
 */
public final class ChildPeer {

    static final String LISTENING = "LISTENING";
    static final String SENT = "SENT";
    /** Short, so that a silent peer is noticed quickly; stretched in the Soft-RoCE guest like ShmTestSupport's. */
    static final Duration LIVENESS_TIMEOUT = Duration.ofSeconds(Long.getLong("rr.test.livenessSeconds", 2));
    static final Duration KEEPALIVE = Duration.ofMillis(500);
    /** The transport the parent test runs on, passed in this JVM's options ({@link TestTransport#childJvmOptions()}). */
    private static final TestTransport TRANSPORT = TestTransport.ofThisJvm();

    private ChildPeer() {
    }

    public static void main(final String[] args) throws Exception {
        try {
            switch (args[0]) {
                case "stream-forever" -> streamForever(Path.of(args[1]), args[2]);
                case "reassembly-server" -> reassemblyServer(Path.of(args[1]), args[2]);
                case "count-server" -> countServer(Path.of(args[1]), args[2]);
                case "send-checked" -> sendChecked(Path.of(args[1]), args[2], Integer.parseInt(args[3]),
                    Long.parseLong(args[4]));
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        } catch (final Throwable error) {
            System.out.println("FAILED " + error);
            error.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
        System.out.flush();
        System.exit(0);
    }

    private static void streamForever(final Path directory, final String address) throws InterruptedException {
        final DisposableServer server = TRANSPORT.server(directory, address).liveness(KEEPALIVE, LIVENESS_TIMEOUT)
            .handle((in, out) -> out.send(Flux.<String, Long>generate(() -> 0L, (next, sink) -> {
                sink.next(Long.toString(next));
                return next + 1;
            }), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        System.out.println(LISTENING + " " + server.address());
        System.out.flush();
        Thread.currentThread().join(); // until killed
    }

    private static void countServer(final Path directory, final String address) throws InterruptedException {
        final DisposableServer server = TRANSPORT.server(directory, address).liveness(KEEPALIVE, LIVENESS_TIMEOUT)
            .handle((in, out) -> {
                final long[] count = {0};
                return in.receive(Codecs.UTF8_STRING)
                    .doOnNext(message -> {
                        count[0]++;
                        System.out.println("GOT " + message);
                        System.out.flush();
                    })
                    .doOnError(error -> {
                        System.out.println("ENDED " + count[0] + " " + error.getMessage());
                        System.out.flush();
                    })
                    .doOnComplete(() -> {
                        System.out.println("ENDED " + count[0] + " completed");
                        System.out.flush();
                    })
                    .onErrorComplete()
                    .then();
            })
            .bind().block(ShmTestSupport.BOUND);
        System.out.println(LISTENING + " " + server.address());
        System.out.flush();
        Thread.currentThread().join(); // until killed
    }

    private static void reassemblyServer(final Path directory, final String address) throws InterruptedException {
        final DisposableServer server = TRANSPORT.server(directory, address)
            .handleStreams((kind, in, out) -> kind == StreamKind.CHANNEL
                ? out.send(in.receive(Codecs.BYTE_ARRAY).map(bytes -> "got " + bytes.length)
                    .doOnError(error -> {
                        System.out.println("INBOUND FAILED " + error.getMessage());
                        System.out.flush();
                    }), Codecs.UTF8_STRING)
                : out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        System.out.println(LISTENING + " " + server.address());
        System.out.flush();
        Thread.currentThread().join(); // until killed
    }

    private static void sendChecked(final Path directory, final String address, final int connections,
                                    final long perConnection) {
        final List<Connection> opened = new ArrayList<>();
        final List<Mono<Void>> sends = new ArrayList<>();
        for (int id = 1; id <= connections; id++) {
            final Connection connection = TRANSPORT.client(directory, address)
                .rings(4, TwoProcessTest.RING_CAPACITY).maxMessageLength(CheckedMessages.MAX_MESSAGE)
                .connect().block(ShmTestSupport.BOUND);
            opened.add(connection);
            sends.add(connection.outbound().send(CheckedMessages.messages(id, perConnection), CheckedMessages.CODEC));
        }
        Mono.when(sends).block(Duration.ofMinutes(5));
        System.out.println(SENT);
        System.out.flush();
        for (final Connection connection : opened) {
            connection.dispose();
            connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        }
    }
}
