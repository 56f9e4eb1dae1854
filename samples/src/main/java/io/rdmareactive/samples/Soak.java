package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.StreamKind;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A soak: a server and several client connections (shared-memory provider, one JVM, so that one program counts
 * both ends) run a random mix of request/response, request/stream and channel exchanges on many streams at once
 * for a while, with messages of mixed sizes (a few bytes to fragmented tens of KiB), each carrying its exchange, its
 * sequence number within the exchange and a CRC32C of its payload, and with consumers that stall at random (behind
 * {@code publishOn}, off the event loops, as a consumer that blocks should be).
 *
 * <pre>
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=soak                                  (2 minutes)
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=soak -Dsample.args="--seconds=7200"   (2 hours)
 * </pre>
 *
 * <p>Every receiver checks each message as it arrives: its CRC, and its sequence number against the next one due
 * in its exchange (a smaller one is a duplicate, a larger one a reordering; what never arrives is lost). Every ten
 * seconds it prints the counts so far; at the end, with the connections still open, what the process holds resident
 * by kind ({@link MemoryFootprint}: the shared-memory files per connection, the heap, direct buffers, the rest), then
 * the memory high-water marks (the process's resident set, VmHWM, and the heap) and, as its last line, {@code soak: sent=N received=N lost=N duplicated=N reordered=N}. It exits 0
 * only when every message sent was received once, in order, intact, and no exchange failed.
 */
public final class Soak {

    static final String USAGE = "use --seconds=N --connections=N --concurrency=N --seed=N --max-stall-ms=N "
        + "--idle=busy-spin|yielding|backoff|sleeping [--directory=PATH]";
    private static final Set<String> OPTIONS = Set.of("seconds", "connections", "concurrency", "seed",
        "max-stall-ms", "idle", "directory", "report-seconds");
    private static final Duration STARTUP = Duration.ofSeconds(30);
    private static final int HEADER = 20;
    private static final byte[] POOL = new byte[128 * 1024];

    static {
        new SplittableRandom(8).nextBytes(POOL);
    }

    private Soak() {
    }

    /** A message: its exchange, its sequence within it, and where its payload lies in the pool. */
    record Message(int exchange, int sequence, int offset, int length, int crc) {

        static Message of(final int exchange, final int sequence, final int length) {
            final int offset = (int) Long.remainderUnsigned(mix(((long) exchange << 32) | sequence),
                POOL.length - length + 1);
            final CRC32C crc = new CRC32C();
            crc.update(POOL, offset, length);
            return new Message(exchange, sequence, offset, length, (int) crc.getValue());
        }
    }

    /** A message read back: what it says it is, and whether its payload matched its CRC. */
    record Received(int exchange, int sequence, int length, int controlValue, boolean intact) {
    }

    /**
     * Encodes a {@link Message} and counts it as sent: a message is sent when it is encoded into the connection's
     * ring, and only then.
     */
    static Codec<Message> messageCodec(final AtomicLong sent) {
        return new Codec<>() {
        @Override
        public String name() {
            return "soak-message";
        }

        @Override
        public int encodedLength(final Message message) {
            return HEADER + message.length();
        }

        @Override
        public int encode(final Message message, final MutableDirectBuffer buffer, final int offset,
                          final int maxLength) {
            final int length = HEADER + message.length();
            if (maxLength < length) {
                throw new CodecException(name(), "a " + length + "-byte message in " + maxLength + " bytes");
            }
            buffer.putInt(offset, message.exchange());
            buffer.putInt(offset + 4, message.sequence());
            buffer.putInt(offset + 8, message.length());
            buffer.putInt(offset + 12, message.crc());
            buffer.putInt(offset + 16, 0);
            buffer.putBytes(offset + HEADER, POOL, message.offset(), message.length());
            sent.incrementAndGet();
            return length;
        }

        @Override
        public Message decode(final DirectBuffer buffer, final int offset, final int length) {
            throw new UnsupportedOperationException("use RECEIVED");
        }
        };
    }

    static final Codec<Received> RECEIVED = new Codec<>() {
        private final ThreadLocal<CRC32C> crcs = ThreadLocal.withInitial(CRC32C::new);
        private final ThreadLocal<byte[]> copies = ThreadLocal.withInitial(() -> new byte[POOL.length]);

        @Override
        public String name() {
            return "soak-received";
        }

        @Override
        public int encodedLength(final Received value) {
            throw new UnsupportedOperationException("use messageCodec");
        }

        @Override
        public int encode(final Received value, final MutableDirectBuffer buffer, final int offset,
                          final int maxLength) {
            throw new UnsupportedOperationException("use messageCodec");
        }

        @Override
        public Received decode(final DirectBuffer buffer, final int offset, final int length) {
            if (length < HEADER) {
                return new Received(-1, -1, length, 0, false);
            }
            final int payload = buffer.getInt(offset + 8);
            if (payload != length - HEADER) {
                return new Received(buffer.getInt(offset), buffer.getInt(offset + 4), length, 0, false);
            }
            final byte[] copy = copies.get();
            buffer.getBytes(offset + HEADER, copy, 0, payload);
            final CRC32C crc = crcs.get();
            crc.reset();
            crc.update(copy, 0, payload);
            return new Received(buffer.getInt(offset), buffer.getInt(offset + 4), payload,
                buffer.getInt(offset + 16), (int) crc.getValue() == buffer.getInt(offset + 12));
        }

        @Override
        public boolean decodesToView() {
            return false;
        }
    };

    private static long mix(final long value) {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Mixed sizes: mostly small, some KiB, a few fragmented (larger than a 64 KiB ring's largest frame). */
    static int payloadLength(final int exchange, final int sequence) {
        final long mixed = mix(((long) exchange << 32) ^ sequence ^ 0x5EED);
        final int bucket = (int) Long.remainderUnsigned(mixed, 1000);
        final int r = (int) ((mixed >>> 20) & 0x7FFFFFFF);
        if (bucket < 850) {
            return r % 200;
        } else if (bucket < 990) {
            return 200 + r % 8000;
        }
        return 20_000 + r % 40_000;
    }

    /** The counts of both ends. */
    static final class Counts {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong received = new AtomicLong();
        final AtomicLong duplicated = new AtomicLong();
        final AtomicLong reordered = new AtomicLong();
        final AtomicLong corrupted = new AtomicLong();
        final AtomicLong exchanges = new AtomicLong();
        final AtomicLong failedExchanges = new AtomicLong();
        final AtomicLong stalls = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        final AtomicReference<String> firstFailure = new AtomicReference<>();

        void failed(final String what) {
            failedExchanges.incrementAndGet();
            firstFailure.compareAndSet(null, what);
        }

        long lost() {
            return sent.get() - received.get();
        }
    }

    /** The receiving end of one direction of one exchange: each message checked against the next sequence due. */
    static final class Receiver {
        private final Counts counts;
        private final int exchange;
        private int next;

        Receiver(final Counts counts, final int exchange) {
            this.counts = counts;
            this.exchange = exchange;
        }

        void accept(final Received message) {
            if (!message.intact() || message.exchange() != exchange) {
                counts.corrupted.incrementAndGet();
                counts.firstFailure.compareAndSet(null, "exchange " + exchange + ": message " + message
                    + " is corrupted or of another exchange");
                return;
            }
            if (message.sequence() < next) {
                counts.duplicated.incrementAndGet();
                return;
            }
            if (message.sequence() > next) {
                counts.reordered.incrementAndGet();
            }
            next = message.sequence() + 1;
            counts.received.incrementAndGet();
            counts.bytes.addAndGet(HEADER + message.length());
        }
    }

    /** Messages 0 .. count - 1 of an exchange. */
    static Flux<Message> messages(final int exchange, final int count) {
        return Flux.range(0, count).map(sequence -> Message.of(exchange, sequence, payloadLength(exchange, sequence)));
    }

    /** Now and then a consumer stalls: backpressure has to hold the producer on the other side. */
    static void maybeStall(final Counts counts, final int maxStallMillis, final long key) {
        if (maxStallMillis > 0 && Long.remainderUnsigned(mix(key), 500) == 0) {
            counts.stalls.incrementAndGet();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1 + Long.remainderUnsigned(mix(~key),
                maxStallMillis)));
        }
    }

    public static void main(final String[] args) throws Exception {
        int status;
        try {
            status = run(args, System.out);
        } catch (final IllegalArgumentException ex) {
            System.err.println("soak: " + ex.getMessage());
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    /** @return 0 when every message sent was received once, in order and intact, and no exchange failed */
    static int run(final String[] args, final PrintStream out) throws Exception {
        final SampleArguments arguments = SampleArguments.parse(args, OPTIONS, USAGE);
        final int seconds = arguments.integer("seconds", 120, 1, Integer.MAX_VALUE);
        final int connections = arguments.integer("connections", 2, 1, 64);
        // a client connection of the default 16 streams has 7 for its requests at once
        final int concurrency = arguments.integer("concurrency", 6, 1, 7);
        final int seed = arguments.integer("seed", 1, 0, Integer.MAX_VALUE);
        final int maxStall = arguments.integer("max-stall-ms", 20, 0, 10_000);
        final int reportSeconds = arguments.integer("report-seconds", 10, 1, 3600);
        final String idle = arguments.idle("backoff");
        final String directory = arguments.string("directory", null);
        final String address = "soak-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final Counts counts = new Counts();
        final Codec<Message> message = messageCodec(counts.sent);
        // where the stalling consumers run: off the event loops, which serve every connection
        final Scheduler stalls = Schedulers.newBoundedElastic(4 * connections * concurrency, 10_000, "soak-consumer", 60,
            true);

        out.printf(Locale.ROOT, "soak: %d s, %d connections, %d exchanges at once on each, seed %d, consumer stalls "
            + "up to %d ms, idle strategy '%s', provider 'shm'%n", seconds, connections, concurrency, seed, maxStall,
            idle);
        SampleEnvironment.print(out, "soak: environment: ");
        RdmaServer server = RdmaServer.create().provider("shm").address(address).idleStrategy(idle)
            .handleStreams((kind, in, outbound) -> serve(kind, in.receive(RECEIVED), messages -> outbound.send(messages, message), counts,
                maxStall, stalls));
        RdmaClient client = RdmaClient.create().provider("shm").address(address).idleStrategy(idle)
            .requestTimeout(Duration.ofSeconds(60));
        if (directory != null) {
            server = server.directory(Path.of(directory));
            client = client.directory(Path.of(directory));
        }
        final DisposableServer bound = server.bind().block(STARTUP);
        final Scheduler reports = Schedulers.newSingle("soak-report", true);
        final long start = System.nanoTime();
        final long end = start + TimeUnit.SECONDS.toNanos(seconds);
        final AtomicLong heapHighWater = new AtomicLong();
        final Disposable reporting = Flux.interval(Duration.ofMillis(200), reports).subscribe(tick -> {
            heapHighWater.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                Math::max);
            if (tick > 0 && tick % (reportSeconds * 5L) == 0) {
                progress(out, counts, System.nanoTime() - start);
            }
        });
        final List<Connection> clients = new ArrayList<>();
        try {
            for (int c = 0; c < connections; c++) {
                clients.add(client.connect().block(STARTUP));
            }
            final AtomicLong exchangeIds = new AtomicLong();
            Flux.range(0, connections)
                .flatMap(c -> Flux.<Integer>generate(sink -> {
                    if (System.nanoTime() < end) {
                        sink.next((int) exchangeIds.getAndIncrement());
                    } else {
                        sink.complete();
                    }
                }).flatMap(exchange -> exchange(clients.get(c), exchange, seed, counts, message, maxStall, stalls),
                    concurrency),
                    connections)
                .then().block(Duration.ofSeconds(seconds + 600L));
            final MemoryFootprint footprint = MemoryFootprint.read(directory != null ? List.of(Path.of(directory))
                : List.of(Path.of("/dev/shm"), Path.of(System.getProperty("java.io.tmpdir"))));
            out.printf(Locale.ROOT, "soak: memory with %d connections open: %s%n", connections,
                footprint == null ? "unknown (no /proc/self/smaps)" : footprint.describe(connections));
        } finally {
            reporting.dispose();
            reports.dispose();
            for (final Connection connection : clients) {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            }
            bound.dispose();
            bound.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            stalls.dispose(); // last: the server's consumers may run on it until the server closed
        }
        progress(out, counts, System.nanoTime() - start);
        out.printf(Locale.ROOT, "soak: exchanges=%d failed=%d corrupted=%d stalls=%d bytes=%d%s%n",
            counts.exchanges.get(), counts.failedExchanges.get(), counts.corrupted.get(), counts.stalls.get(),
            counts.bytes.get(), counts.firstFailure.get() == null ? "" : " first failure: "
                + counts.firstFailure.get());
        out.printf(Locale.ROOT, "soak: memory high-water: resident %s, heap %d MiB%n", residentHighWater(),
            heapHighWater.get() >> 20);
        final boolean ok = counts.lost() == 0 && counts.duplicated.get() == 0 && counts.reordered.get() == 0
            && counts.corrupted.get() == 0 && counts.failedExchanges.get() == 0 && counts.sent.get() > 0;
        out.printf(Locale.ROOT, "soak: sent=%d received=%d lost=%d duplicated=%d reordered=%d%n", counts.sent.get(),
            counts.received.get(), counts.lost(), counts.duplicated.get(), counts.reordered.get());
        return ok ? 0 : 1;
    }

    /** The server's side of an exchange: answers requests and channels with checked messages of its own. */
    private static Publisher<Void> serve(final StreamKind kind, final Flux<Received> in,
                                         final SendFunction send, final Counts counts, final int maxStall,
                                         final Scheduler stalls) {
        return switch (kind) {
            case REQUEST_RESPONSE -> send.send(in.next().map(request -> {
                checkRequest(counts, request);
                return Message.of(request.exchange() | 1 << 30, 0, payloadLength(request.exchange() | 1 << 30, 0));
            }));
            case REQUEST_STREAM -> send.send(in.next().flatMapMany(request -> {
                checkRequest(counts, request);
                return messages(request.exchange() | 1 << 30, request.controlValue());
            }));
            case CHANNEL -> {
                final Receiver[] receiver = new Receiver[1];
                // a consumer that blocks leaves the event loop first (publishOn), as threading.md asks
                yield send.send(in.publishOn(stalls).map(message -> {
                    final int exchange = message.exchange();
                    if (receiver[0] == null) {
                        receiver[0] = new Receiver(counts, exchange);
                    }
                    receiver[0].accept(message); // the server's receiver of a channel checks what it echoes
                    maybeStall(counts, maxStall, ((long) exchange << 32) ^ message.sequence() ^ 77);
                    return Message.of(exchange | 1 << 30, message.sequence(), payloadLength(exchange | 1 << 30,
                        message.sequence()));
                }));
            }
            case FIRE_AND_FORGET -> in.doOnNext(request -> checkRequest(counts, request)).then();
        };
    }

    private static void checkRequest(final Counts counts, final Received request) {
        new Receiver(counts, request.exchange()).accept(request);
    }

    @FunctionalInterface
    private interface SendFunction {
        Publisher<Void> send(Publisher<Message> messages);
    }

    /** One exchange of the client: a request/response, a request/stream or a channel, chosen from the seed. */
    private static Mono<Void> exchange(final Connection connection, final int exchange, final int seed,
                                       final Counts counts, final Codec<Message> message, final int maxStall,
                                       final Scheduler stalls) {
        final SplittableRandom random = new SplittableRandom(mix(seed * 1_000_003L + exchange));
        final int choice = random.nextInt(10);
        final Receiver receiver = new Receiver(counts, exchange | 1 << 30);
        final Mono<Void> run;
        if (choice < 5) {
            run = connection.requestResponse(Message.of(exchange, 0, payloadLength(exchange, 0)), message,
                RECEIVED).doOnNext(receiver::accept).then();
        } else if (choice < 8) {
            final int count = 1 + random.nextInt(400);
            final Message request = Message.of(exchange, 0, payloadLength(exchange, 0));
            run = connection.requestStream(request, withCount(message, count), RECEIVED)
                .publishOn(stalls) // a consumer that blocks leaves the event loop first
                .doOnNext(answer -> {
                    receiver.accept(answer);
                    maybeStall(counts, maxStall, ((long) exchange << 32) ^ answer.sequence());
                })
                .then();
        } else {
            final int count = 1 + random.nextInt(300);
            run = connection.requestChannel(messages(exchange, count), message, RECEIVED)
                .doOnNext(receiver::accept).then();
        }
        return run.doOnSuccess(ignored -> counts.exchanges.incrementAndGet())
            .onErrorResume(error -> {
                counts.failed("exchange " + exchange + ": " + error);
                return Mono.empty();
            });
    }

    /** The request of a request/stream carries the number of messages wanted in its control word. */
    private static Codec<Message> withCount(final Codec<Message> codec, final int count) {
        return new Codec<>() {
            @Override
            public String name() {
                return codec.name();
            }

            @Override
            public int encodedLength(final Message message) {
                return codec.encodedLength(message);
            }

            @Override
            public int encode(final Message message, final MutableDirectBuffer buffer, final int offset,
                              final int maxLength) {
                final int length = codec.encode(message, buffer, offset, maxLength);
                buffer.putInt(offset + 16, count);
                return length;
            }

            @Override
            public Message decode(final DirectBuffer buffer, final int offset, final int length) {
                return codec.decode(buffer, offset, length);
            }
        };
    }

    private static void progress(final PrintStream out, final Counts counts, final long elapsedNanos) {
        out.printf(Locale.ROOT, "  %6.0f s  exchanges %8d  sent %9d  received %9d  in flight %6d  duplicated %d  "
                + "reordered %d  corrupted %d  failed %d%n", elapsedNanos / 1e9, counts.exchanges.get(),
            counts.sent.get(), counts.received.get(), counts.lost(), counts.duplicated.get(), counts.reordered.get(),
            counts.corrupted.get(), counts.failedExchanges.get());
    }

    /** @return the process's peak resident set (VmHWM of /proc/self/status), or "unknown" off Linux */
    private static String residentHighWater() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    final long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return (kib >> 10) + " MiB (VmHWM)";
                }
            }
        } catch (final IOException | NumberFormatException ex) {
            return "unknown (" + ex.getMessage() + ")";
        }
        return "unknown";
    }
}
