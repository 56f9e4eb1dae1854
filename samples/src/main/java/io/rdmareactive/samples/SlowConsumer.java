package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
// tag::feed[]
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
// end::feed[]
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
// tag::feed[]
import reactor.core.publisher.Mono;
// end::feed[]
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Backpressure end to end: a producer that could emit millions of messages a second meets a subscriber that takes
 * a millisecond for each, across a connection of the shared-memory provider (server and client in one JVM, so one
 * program can count both ends; they talk through the provider exactly as two processes do).
 *
 * <pre>
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=slow-consumer
 *   ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=slow-consumer -Dsample.args="--messages=10000 --prefetch=64"
 * </pre>
 *
 * <p>The subscriber asks for everything ({@code request(Long.MAX_VALUE)}) and then is slow. The connection does not
 * pass that demand on: it grants the producer's side at most {@code prefetch} messages of credit ahead of what the
 * subscriber has taken, so the producer's {@code Flux} is only ever asked for what that credit allows (in requests
 * of at most 64), and it stays at most {@code prefetch} messages ahead of the subscriber however fast it could go.
 * Every second the sample prints how many messages were produced and consumed; at the end, that the counts match,
 * every message arrived once and in order, and the largest distance between the two ends.
 *
 * <p>Closing: the server keeps the connection open after its feed ends, until the client ends its own (empty)
 * stream to say it has read everything; then the server closes and the client waits for that. One side closing,
 * once nobody reads any more, is the orderly way to end; a close from either side, or from both at once, while the
 * other still reads is safe too (the reader first gets what had arrived; {@code SimultaneousCloseTest} in the core
 * closes both sides at once while each reads in place), only less tidy to report.
 *
 * <p>The subscriber sleeps for each message, as a consumer that blocks (on a database, a file, a remote call) would.
 * Messages are delivered on the connection's event loop ({@code rdma-loop-*}), which serves every connection of the
 * process's runtime (here the producing server's too): a subscriber that blocks there stalls them all. So the sample
 * does what an application should: it leaves the loop with {@code publishOn(Schedulers.boundedElastic(),}
 * {@value #HANDOFF_QUEUE}{@code )} and sleeps on that thread. The hand-off's queue of {@value #HANDOFF_QUEUE} adds to
 * the distance between the ends, which stays bounded by {@code prefetch} + {@value #HANDOFF_QUEUE}.
 */
public final class SlowConsumer {

    static final String USAGE = "use --messages=N --consumer-delay-us=MICROS --prefetch=N "
        + "--idle=busy-spin|yielding|backoff|sleeping [--directory=PATH]";
    private static final Set<String> OPTIONS = Set.of("messages", "consumer-delay-us", "prefetch", "idle",
        "directory", "report-ms");
    private static final Duration STARTUP = Duration.ofSeconds(30);
    /** The queue of the {@code publishOn} that moves the slow work off the event loop. */
    static final int HANDOFF_QUEUE = 8;

    /** A {@code long} as 8 bytes, little-endian: a codec written against the public {@link Codec} contract. */
    static final Codec<Long> SEQUENCE = new Codec<>() {
        @Override
        public String name() {
            return "sequence";
        }

        @Override
        public int encodedLength(final Long value) {
            return Long.BYTES;
        }

        @Override
        public int encode(final Long value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
            if (offset < 0 || maxLength < Long.BYTES || (long) offset + Long.BYTES > buffer.capacity()) {
                throw new CodecException(name(), "8 bytes do not fit at offset " + offset + " with " + maxLength
                    + " bytes claimed in a buffer of " + buffer.capacity());
            }
            buffer.putLong(offset, value);
            return Long.BYTES;
        }

        @Override
        public Long decode(final DirectBuffer buffer, final int offset, final int length) {
            if (length != Long.BYTES || offset < 0 || (long) offset + length > buffer.capacity()) {
                throw new CodecException(name(), "a sequence number is 8 bytes, not " + length + " at offset "
                    + offset);
            }
            return buffer.getLong(offset);
        }

        @Override
        public boolean decodesToView() {
            return false;
        }
    };

    private SlowConsumer() {
    }

    public static void main(final String[] args) throws Exception {
        int status;
        try {
            status = run(args, System.out);
        } catch (final IllegalArgumentException ex) {
            System.err.println("slow-consumer: " + ex.getMessage());
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    /** @return 0 when every message arrived once, in order, and the producer stayed within the prefetch */
    static int run(final String[] args, final PrintStream out) throws Exception {
        final SampleArguments arguments = SampleArguments.parse(args, OPTIONS, USAGE);
        final int messages = arguments.integer("messages", 5_000, 1, Integer.MAX_VALUE);
        final long delayNanos = TimeUnit.MICROSECONDS.toNanos(arguments.integer("consumer-delay-us", 1_000, 0,
            1_000_000));
        final int prefetch = arguments.integer("prefetch", 256, 1, 1 << 20);
        final int reportMillis = arguments.integer("report-ms", 1_000, 10, 60_000);
        final String idle = arguments.idle("backoff");
        final String directory = arguments.string("directory", null);
        final String address = "slow-consumer-" + ProcessHandle.current().pid() + "-" + System.nanoTime();

        final Counters counters = new Counters();
        // the fast producer: emits whatever it is asked for at once, and counts the asking and the emitting
        final Flux<Long> producer = Flux.range(0, messages)
            .doOnRequest(counters::askedFor)
            .map(Integer::longValue)
            .doOnNext(counters::produced);

        out.printf(Locale.ROOT, "slow-consumer: %d messages from a producer that emits as fast as it is allowed to a "
                + "subscriber that takes %.1f ms for each and asks for all at once%n", messages, delayNanos / 1e6);
        out.printf(Locale.ROOT, "  provider 'shm', one JVM (server produces, client consumes), prefetch %d, idle "
            + "strategy '%s'%n", prefetch, idle);

        // tag::feed[]
        RdmaServer server = RdmaServer.create().provider("shm").address(address).idleStrategy(idle)
            // the server sends the feed, then keeps the connection until the client says it has read everything
            .handle((in, outbound) -> Mono.when(outbound.send(producer, SEQUENCE), in.receive(SEQUENCE).then()));
        RdmaClient client = RdmaClient.create().provider("shm").address(address).idleStrategy(idle)
            .prefetch(prefetch);
        // end::feed[]
        if (directory != null) {
            server = server.directory(Path.of(directory));
            client = client.directory(Path.of(directory));
        }

        final DisposableServer bound = server.bind().block(STARTUP);
        final Scheduler reports = Schedulers.newSingle("slow-consumer-report", true);
        String failure = null;
        try {
            final Connection connection = client.connect().block(STARTUP);
            final long start = System.nanoTime();
            final Disposable reporting = Flux.interval(Duration.ofMillis(reportMillis), reports)
                .subscribe(tick -> counters.report(out, System.nanoTime() - start));
            try {
                // the slow subscriber: then() requests Long.MAX_VALUE, and each message takes delayNanos, on a
                // thread of its own (publishOn), never on the event loop
                final CompletableFuture<Void> done = connection.inbound().receive(SEQUENCE)
                    .publishOn(Schedulers.boundedElastic(), HANDOFF_QUEUE)
                    .doOnNext(value -> {
                        counters.consumed(value);
                        if (delayNanos > 0) {
                            LockSupport.parkNanos(delayNanos);
                        }
                    })
                    .then()
                    .toFuture();
                done.get(60 + TimeUnit.NANOSECONDS.toSeconds(delayNanos * 4 * messages), TimeUnit.SECONDS);
                // everything is read: end our (empty) stream, the server's handler ends, and the server closes
                connection.outbound().send(Flux.<Long>empty(), SEQUENCE).block(Duration.ofSeconds(10));
                connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            } catch (final ExecutionException ex) {
                failure = String.valueOf(ex.getCause());
            } catch (final TimeoutException ex) {
                failure = "timed out";
            } finally {
                reporting.dispose();
                counters.report(out, System.nanoTime() - start);
                connection.dispose();
                connection.onDispose().onErrorComplete().block(Duration.ofSeconds(10));
            }
        } finally {
            reports.dispose();
            bound.dispose();
        }
        return counters.summary(out, messages, prefetch, failure);
    }

    /** Both ends' counts; the producer's on the event loop, the consumer's on its publishOn thread. */
    private static final class Counters {
        private final AtomicLong askedFor = new AtomicLong();
        private final AtomicLong requests = new AtomicLong();
        private final AtomicLong largestRequest = new AtomicLong();
        private final AtomicLong produced = new AtomicLong();
        private final AtomicLong consumed = new AtomicLong();
        private final AtomicLong inFlightMax = new AtomicLong();
        private final AtomicLong outOfSequence = new AtomicLong();

        void askedFor(final long n) {
            askedFor.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            requests.incrementAndGet();
            largestRequest.accumulateAndGet(n, Math::max);
        }

        void produced(final long value) {
            final long producedNow = produced.incrementAndGet();
            // read after the increment, so this never overstates the distance
            inFlightMax.accumulateAndGet(producedNow - consumed.get(), Math::max);
        }

        void consumed(final long value) {
            final long expected = consumed.getAndIncrement();
            if (value != expected) {
                outOfSequence.incrementAndGet();
            }
        }

        void report(final PrintStream out, final long elapsedNanos) {
            final long c = consumed.get();
            final long p = produced.get();
            out.printf(Locale.ROOT, "  %5.1f s  produced %7d  consumed %7d  in flight %5d   (producer asked for %d "
                    + "in %d requests, the largest %d)%n", elapsedNanos / 1e9, p, c, p - c, askedFor.get(),
                requests.get(), largestRequest.get());
        }

        int summary(final PrintStream out, final int messages, final int prefetch, final String failure) {
            final long p = produced.get();
            final long c = consumed.get();
            final boolean ok = failure == null && p == messages && c == messages && outOfSequence.get() == 0
                && inFlightMax.get() <= prefetch + HANDOFF_QUEUE;
            out.printf(Locale.ROOT, "order checked: %d out of sequence; the subscriber asked for everything, the "
                + "producer was asked for %d in %d requests of at most %d%n", outOfSequence.get(), askedFor.get(),
                requests.get(), largestRequest.get());
            if (failure != null) {
                out.println("slow-consumer FAILED: " + failure);
            }
            out.printf(Locale.ROOT, "slow-consumer: produced=%d consumed=%d in-flight-max=%d (bounded by prefetch %d "
                + "+ publishOn queue %d) dropped=%d%s%n", p, c, inFlightMax.get(), prefetch, HANDOFF_QUEUE, p - c,
                ok ? "" : "  FAILED");
            return ok ? 0 : 1;
        }
    }
}
