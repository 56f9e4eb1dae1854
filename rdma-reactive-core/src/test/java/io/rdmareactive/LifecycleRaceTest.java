package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.publisher.Sinks;

/**
 * Races of the connection's lifecycle against the threads that use it, which a design with a worker thread per
 * connection lost and this one must win: closing runs on the connection's event loop, and a {@link
 * io.rdmareactive.internal.reactive.RingGuard} keeps sender threads out of rings that are being unmapped (and the
 * loop waits until no sender is inside). Losing such a race would crash the JVM (a write into unmapped memory) or
 * leave a Mono that never terminates; each race is run many rounds, at varying phases:
 * <ul>
 *   <li>a connection disposed while another thread encodes into its send ring (a synchronous {@code Flux.range}
 *       subscribed on that thread, or a publisher that emits on that thread whatever the sender asks for), or makes
 *       tight {@code fireAndForget} calls: every send terminates (completes, or fails with
 *       {@link RdmaConnectionException}), {@code onDispose} completes;</li>
 *   <li>a fire-and-forget, request/stream and request/response issued at the moment the connection is disposed:
 *       each terminates;</li>
 *   <li>a server with a secret disposed while many clients are in the middle of the authenticated handshake: every
 *       connect terminates, the server's {@code onDispose} completes, and once everything is disposed the directory
 *       is empty and the runtime's loop threads have ended;</li>
 *   <li>both sides disposing at once (the whole server, or the server's side of the connection) while each reads
 *       the other's stream in place ({@code receiveViews}) and writes its own: both {@code onDispose} complete, no
 *       view ever showed a byte that was not sent.</li>
 * </ul>
 * Afterwards the test's shared-memory directory is empty and the loop threads of its runtime have ended.
 * {@code -Drr.test.raceRounds=N} runs N rounds of each race (default 200; the handshake race and the
 * race of both sides, which start a server and a runtime each round, run half as many).
 *
 * <p>Every wait is bounded ({@link ShmTestSupport#BOUND}); nothing asserts how long anything took.
 */
class LifecycleRaceTest extends RuntimeTestFixture {

    private static final int ROUNDS = Integer.getInteger("rr.test.raceRounds", 200);
    /** Elements of the synchronous {@code Flux.range} sends. */
    private static final int RANGE = 20_000;
    private static final byte[] SECRET = "a shared secret of 32 bytes ....".getBytes(StandardCharsets.US_ASCII);

    /** Failures on the threads a test starts. */
    private final ConcurrentLinkedQueue<Throwable> threadFailures = new ConcurrentLinkedQueue<>();

    // ------------------------------------------------------------------------------------------------ a: sending

    /**
     * A connection disposed (from the test's thread) while a sender thread is in the middle of a send, in three kinds
     * of rounds by turn:
     * <ol>
     *   <li>a synchronous {@code Flux.range} of 20,000 subscribed on the sender thread (what it emits while it has
     *       credit is encoded there, the rest on the loop; now and then the send completes before the dispose),
     *       disposed after a varying number of elements;</li>
     *   <li>a publisher that emits on the sender thread, without end, whatever the sender asks for, with a slow codec
     *       that writes its 2 KiB message into the ring a byte at a time (the sender thread is inside the ring most of
     *       the time), disposed after a varying number of elements;</li>
     *   <li>the same, but the codec holds the sender thread inside the ring, in the middle of a message, until the
     *       test's thread has called {@code dispose()}, and for a varying time up to a millisecond after: the close
     *       must wait until the sender is out before it unmaps the ring (on shared memory, the mapping of the
     *       peer's receive ring); one that did not would crash the JVM here.</li>
     * </ol>
     */
    @Test
    void aConnectionDisposedWhileAnotherThreadSendsEndsTheSendAndCloses() throws Exception {
        final DisposableServer server = track(drainingServer("race-send"));
        final AtomicLong completed = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        for (int round = 0; round < ROUNDS; round++) {
            final Connection connection = track(connect(server));
            final AtomicLong emitted = new AtomicLong();
            final CompletableFuture<Throwable> sendEnded = new CompletableFuture<>();
            final int kind = round % 3;
            final SlowCodec codec = kind == 2 ? new SlowCodec(1 + round % 16, (round % 5) * 250_000L)
                : new SlowCodec(0, 0);
            final Thread sender = startThread(SENDER, () -> {
                if (kind == 0) {
                    connection.outbound().send(Flux.range(0, RANGE).map(i -> "m" + i)
                            .doOnNext(ignored -> emitted.incrementAndGet()), Codecs.UTF8_STRING)
                        .subscribe(null, sendEnded::complete, () -> sendEnded.complete(null));
                } else {
                    final ThreadEmitter emitter = new ThreadEmitter(emitted);
                    connection.outbound().send(emitter, codec)
                        .subscribe(null, sendEnded::complete, () -> sendEnded.complete(null));
                    emitter.emit(sendEnded::isDone);
                }
            });
            if (kind == 2) {
                assertThat(codec.midMessage.await(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS))
                    .as("round %d: the sender thread is in the middle of a message", round).isTrue();
            } else {
                final long target = kind == 0 ? (round * 997L) % (RANGE + 1) : (round * 31L) % 300;
                awaitAtLeast(emitted, target, "round " + round + ": the sender to emit " + target + " elements");
            }

            connection.dispose();
            codec.disposeCalled = true;

            final Throwable error = sendEnded.get(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS);
            if (error == null) {
                completed.incrementAndGet();
                assertThat(kind).as("round %d: only the finite send can complete", round).isZero();
            } else {
                failed.incrementAndGet();
                assertThat(error).as("round %d: how the send ended", round)
                    .isInstanceOf(RdmaConnectionException.class);
            }
            join(sender, "round " + round + ": the sender thread");
            assertThat(errorOf(connection.onDispose())).as("round %d: onDispose", round).isNull();
        }
        assertThat(completed.get() + failed.get()).as("sends that ended").isEqualTo(ROUNDS);
        assertNoThreadFailures();
        disposeAndAwaitNothingLeft(server);
    }

    /**
     * A connection disposed while another thread makes tight {@code fireAndForget} calls: every call's Mono
     * terminates: it completes (sent), fails with {@link RdmaConnectionException} (the connection ended first), or
     * with {@link RdmaStreamsBusyException} (refused at once, nothing sent).
     */
    @Test
    void aConnectionDisposedDuringTightFireAndForgetCallsEndsEveryCall() throws Exception {
        final DisposableServer server = track(drainingServer("race-fire"));
        final int calls = 100;
        final Map<Class<?>, AtomicLong> outcomes = new ConcurrentHashMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            final Connection connection = track(connect(server));
            final List<CompletableFuture<Throwable>> ends = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                ends.add(new CompletableFuture<>());
            }
            final AtomicLong issued = new AtomicLong();
            final Thread caller = startThread("race-fire", () -> {
                for (int i = 0; i < calls; i++) {
                    final CompletableFuture<Throwable> ended = ends.get(i);
                    connection.fireAndForget("fire " + i, Codecs.UTF8_STRING)
                        .subscribe(null, ended::complete, () -> ended.complete(null));
                    issued.incrementAndGet();
                }
            });
            awaitAtLeast(issued, (round * 37L) % (calls + 1), "round " + round + ": calls to be issued");

            connection.dispose();

            join(caller, "round " + round + ": the calling thread");
            for (int i = 0; i < calls; i++) {
                final Throwable error = ends.get(i).get(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS);
                if (error != null) {
                    assertThat(error).as("round %d: how fire-and-forget %d ended", round, i)
                        .isInstanceOfAny(RdmaConnectionException.class, RdmaStreamsBusyException.class);
                }
                outcomes.computeIfAbsent(error == null ? Void.class : error.getClass(), key -> new AtomicLong())
                    .incrementAndGet();
            }
            assertThat(errorOf(connection.onDispose())).as("round %d: onDispose", round).isNull();
        }
        assertThat(outcomes.values().stream().mapToLong(AtomicLong::get).sum()).as("calls that ended: %s", outcomes)
            .isEqualTo((long) ROUNDS * calls);
        assertNoThreadFailures();
        disposeAndAwaitNothingLeft(server);
    }

    // ------------------------------------------------------------------------------------------------ b: requests

    /**
     * A fire-and-forget, a request/stream and a request/response issued from one thread at the moment another
     * disposes the connection (both released by one latch, each after a varying short spin): each terminates, as
     * sent or answered, or with {@link RdmaConnectionException}. The request timeout is set beyond the bound, so
     * that a call left waiting shows as one that did not terminate.
     */
    @Test
    void requestsIssuedAsTheConnectionIsDisposedAlwaysTerminate() throws Exception {
        final DisposableServer server = track(drainingServer("race-request"));
        final RdmaClient client = ShmTestSupport.client(directory, server.address())
            .requestTimeout(ShmTestSupport.BOUND.multipliedBy(3));
        for (int round = 0; round < ROUNDS; round++) {
            final Connection connection = track(client.connect().block(ShmTestSupport.BOUND));
            final CompletableFuture<Throwable> fired = new CompletableFuture<>();
            final CompletableFuture<Throwable> streamed = new CompletableFuture<>();
            final CompletableFuture<Throwable> answered = new CompletableFuture<>();
            final List<String> items = new java.util.concurrent.CopyOnWriteArrayList<>();
            final CountDownLatch go = new CountDownLatch(1);
            final int callerSpin = (round % 5) * 2_000;
            final int disposerSpin = ((round / 5) % 5) * 2_000;
            final Thread caller = startThread("race-requests", () -> {
                await(go);
                spin(callerSpin);
                connection.fireAndForget("fire", Codecs.UTF8_STRING)
                    .subscribe(null, fired::complete, () -> fired.complete(null));
                connection.requestStream("item", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .subscribe(items::add, streamed::complete, () -> streamed.complete(null));
                connection.requestResponse("answer", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                    .subscribe(null, answered::complete, () -> answered.complete(null));
            });
            final Thread disposer = startThread("race-dispose", () -> {
                await(go);
                spin(disposerSpin);
                connection.dispose();
            });
            go.countDown();
            join(caller, "round " + round + ": the calling thread");
            join(disposer, "round " + round + ": the disposing thread");

            for (final Map.Entry<String, CompletableFuture<Throwable>> call : Map.of("fireAndForget", fired,
                "requestStream", streamed, "requestResponse", answered).entrySet()) {
                final Throwable error = call.getValue().get(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS);
                if (error != null) {
                    assertThat(error).as("round %d: how %s ended", round, call.getKey())
                        .isInstanceOf(RdmaConnectionException.class);
                }
            }
            if (streamed.get() == null) {
                assertThat(items).as("round %d: a completed request/stream got every item", round)
                    .containsExactly("item0", "item1", "item2", "item3", "item4");
            }
            assertThat(errorOf(connection.onDispose())).as("round %d: onDispose", round).isNull();
        }
        assertNoThreadFailures();
        disposeAndAwaitNothingLeft(server);
    }

    // ------------------------------------------------------------------------------------------------ c: handshake

    /**
     * A server with a secret disposed right after eight clients with the secret started to connect (a varying pause
     * of 0 to 9 ms between, so that the dispose meets connects at different stages: not yet at the listener,
     * queued at it, in the middle of the authenticated handshake, or done): every connect terminates (a
     * connection, or an {@link RdmaConnectionException}), the server's onDispose completes, and once the connections
     * that were made are disposed too the directory is empty and the runtime's loops have ended, every round.
     */
    @Test
    void aServerDisposedDuringAuthenticatedHandshakesEndsEveryConnectAndLeavesNothing() throws Exception {
        final int clients = 8;
        final int rounds = Math.max(1, ROUNDS / 2);
        long connected = 0;
        long refused = 0;
        for (int round = 0; round < rounds; round++) {
            final String address = ShmTestSupport.uniqueAddress("race-auth");
            final DisposableServer server = track(ShmTestSupport.server(directory, address).secret(SECRET)
                .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
                .bind().block(ShmTestSupport.BOUND));
            final RdmaClient client = ShmTestSupport.client(directory, address).secret(SECRET);
            final List<CompletableFuture<Object>> connects = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                final CompletableFuture<Object> outcome = new CompletableFuture<>();
                connects.add(outcome);
                client.connect().subscribe(outcome::complete, outcome::complete);
            }
            LockSupport.parkNanos((round % 10) * 1_000_000L);

            server.dispose();

            final List<Connection> made = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                final Object outcome = connects.get(i).get(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS);
                if (outcome instanceof Connection connection) {
                    made.add(track(connection));
                } else {
                    assertThat((Throwable) outcome).as("round %d: how connect %d failed", round, i)
                        .isInstanceOf(RdmaConnectionException.class);
                }
            }
            connected += made.size();
            refused += clients - made.size();
            assertThat(errorOf(server.onDispose())).as("round %d: the server's onDispose", round).isNull();
            for (final Connection connection : made) {
                connection.dispose(); // ended by the server, most likely; it holds the runtime until disposed
            }
            for (final Connection connection : made) {
                errorOf(connection.onDispose()); // the server went: either outcome, but it must come
            }
            awaitNothingLeft("round " + round);
        }
        assertThat(connected + refused).as("connects that ended (%d connected, %d refused)", connected, refused)
            .isEqualTo((long) rounds * clients);
        assertNoThreadFailures();
    }

    // ------------------------------------------------------------------------------------------------ d: both sides

    /**
     * Both sides dispose at once, from two threads released by one latch, while each reads the other's stream in
     * place (every byte of every view, all of which were sent as zeros) and writes its own. The rounds go through
     * the four combinations of: the whole server disposed, or only the server's side of the connection (its handler
     * ends, which disposes it; the server follows once the round is over); and which side's reader is held, on the
     * loop, in the middle of a view (it reads the view again and again) from before the two disposing threads start
     * until they both returned and up to a millisecond after: the ring under that view must not be freed until the
     * reader is done with it, which closing on the loop guarantees (a close on the disposing thread would free it
     * under the reader and crash the JVM). Both onDispose complete; no view ever showed a byte that was not sent;
     * every round leaves an empty directory and no loop thread.
     */
    @Test
    void bothSidesDisposingAtOnceWhileReadingInPlaceEndCleanly() throws Exception {
        final AtomicLong corrupt = new AtomicLong();
        final int rounds = Math.max(1, ROUNDS / 2);
        for (int round = 0; round < rounds; round++) {
            final String address = ShmTestSupport.uniqueAddress("race-close");
            final boolean wholeServer = round % 2 == 0;
            final boolean clientHolds = (round / 2) % 2 == 0;
            final long holdAt = 1 + (round * 53L) % 500;
            final long extraNanos = (round % 5) * 250_000L;
            final ViewReader serverReader = new ViewReader(corrupt, clientHolds ? 0 : holdAt, extraNanos);
            final ViewReader clientReader = new ViewReader(corrupt, clientHolds ? holdAt : 0, extraNanos);
            final ViewReader holder = clientHolds ? clientReader : serverReader;
            final Sinks.Empty<Void> endServerSide = Sinks.empty();
            final DisposableServer server = track(ShmTestSupport.server(directory, address)
                .handle((in, out) -> Mono.when(
                        in.receiveViews().doOnNext(serverReader::onView).then(),
                        out.send(zeros(), Codecs.BYTE_ARRAY))
                    .or(endServerSide.asMono()))
                .bind().block(ShmTestSupport.BOUND));
            final Connection client = track(ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND));
            client.inbound().receiveViews().subscribe(clientReader::onView, error -> { });
            client.outbound().send(zeros(), Codecs.BYTE_ARRAY).subscribe(null, error -> { });
            assertThat(holder.midView.await(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .as("round %d: the %s's reader is in the middle of view %d", round, clientHolds ? "client" : "server",
                    holdAt).isTrue();

            final CountDownLatch go = new CountDownLatch(1);
            final Thread a = startThread("race-close-client", () -> {
                await(go);
                client.dispose();
            });
            final Thread b = startThread("race-close-server", () -> {
                await(go);
                if (wholeServer) {
                    server.dispose();
                } else {
                    endServerSide.tryEmitEmpty();
                }
            });
            go.countDown();
            join(a, "round " + round + ": the client's disposing thread");
            join(b, "round " + round + ": the server's disposing thread");
            holder.disposed = true;

            final Throwable clientEnd = errorOf(client.onDispose());
            if (clientEnd != null) {
                assertThat(clientEnd).as("round %d: how the client's onDispose ended", round)
                    .isInstanceOf(RdmaConnectionException.class);
            }
            server.dispose(); // when only its side of the connection went: now the server goes too
            assertThat(errorOf(server.onDispose())).as("round %d: the server's onDispose", round).isNull();
            assertThat(holder.held).as("round %d: the reader was held until both had disposed", round).isTrue();
            awaitNothingLeft("round " + round);
        }
        assertThat(corrupt.get()).as("views that showed bytes that were never sent").isZero();
        assertNoThreadFailures();
    }

    // ------------------------------------------------------------------------------------------------ support

    /**
     * A server that reads whatever its clients send (the connection's own stream and fire-and-forget, as views),
     * answers a request/response with the request in upper case and a request/stream with five items.
     */
    private DisposableServer drainingServer(final String prefix) {
        return ShmTestSupport.server(directory, ShmTestSupport.uniqueAddress(prefix))
            .handle((in, out) -> in.receiveViews().then())
            .handleStreams((kind, in, out) -> switch (kind) {
                case FIRE_AND_FORGET -> in.receiveViews().then();
                case REQUEST_RESPONSE -> out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase),
                    Codecs.UTF8_STRING);
                case REQUEST_STREAM -> out.send(in.receive(Codecs.UTF8_STRING).next()
                    .flatMapMany(request -> Flux.range(0, 5).map(i -> request + i)), Codecs.UTF8_STRING);
                case CHANNEL -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING);
            })
            .bind().block(ShmTestSupport.BOUND);
    }

    private Connection connect(final DisposableServer server) {
        return ShmTestSupport.client(directory, server.address()).connect().block(ShmTestSupport.BOUND);
    }

    /** The name of the sending thread of race (a), where the slow codec may hold a message. */
    private static final String SENDER = "race-sender";

    /**
     * Encodes any string as 2 KiB of sevens, one byte at a time with a spin-wait hint between: the thread that
     * encodes stays inside the send ring for a while (tens of microseconds a message). With {@code holdAt} above 0,
     * the first message from the {@code holdAt}-th on that the {@link #SENDER} thread encodes is held in the middle:
     * the codec says so ({@link #midMessage}), goes on writing until {@link #disposeCalled}, then for
     * {@code extraNanos} more (bounded by {@link ShmTestSupport#BOUND} in all). Encode only.
     */
    private static final class SlowCodec implements Codec<String> {
        private static final int LENGTH = 2048;
        private final int holdAt;
        private final long extraNanos;
        final CountDownLatch midMessage = new CountDownLatch(1);
        volatile boolean disposeCalled;
        /** Touched by the draining thread only, one drain at a time. */
        private int encoded;
        private boolean held;

        SlowCodec(final int holdAt, final long extraNanos) {
            this.holdAt = holdAt;
            this.extraNanos = extraNanos;
        }

        @Override
        public String name() {
            return "slow-2KiB";
        }

        @Override
        public int encodedLength(final String value) {
            return LENGTH;
        }

        @Override
        public int encode(final String value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
            write(buffer, offset);
            encoded++;
            if (holdAt > 0 && !held && encoded >= holdAt && SENDER.equals(Thread.currentThread().getName())) {
                held = true;
                midMessage.countDown();
                final long bound = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
                while (!disposeCalled && System.nanoTime() - bound < 0) {
                    write(buffer, offset);
                }
                final long until = System.nanoTime() + extraNanos;
                while (System.nanoTime() - until < 0) {
                    write(buffer, offset);
                }
            }
            return LENGTH;
        }

        private static void write(final MutableDirectBuffer buffer, final int offset) {
            for (int i = 0; i < LENGTH; i++) {
                buffer.putByte(offset + i, (byte) 7);
                Thread.onSpinWait();
            }
        }

        @Override
        public String decode(final DirectBuffer buffer, final int offset, final int length) {
            throw new UnsupportedOperationException("encode only");
        }
    }

    /** Messages of 1,000 zero bytes, without end. */
    private static Flux<byte[]> zeros() {
        return Flux.range(0, Integer.MAX_VALUE).map(i -> new byte[1000]);
    }

    /**
     * Reads every byte of each view in place, on the loop (a view into freed memory would crash the JVM here), and
     * counts views with bytes that were not sent (every message is 1,000 zeros). With {@code holdAt} above 0, it
     * holds the {@code holdAt}-th view: says so ({@link #midView}) and reads it again and again until told that both
     * sides {@link #disposed}, then for {@code extraNanos} more (bounded by {@link ShmTestSupport#BOUND} in all).
     */
    private static final class ViewReader {
        private final AtomicLong corrupt;
        private final long holdAt;
        private final long extraNanos;
        final CountDownLatch midView = new CountDownLatch(1);
        volatile boolean disposed;
        volatile boolean held;
        /** Loop only. */
        private long read;

        ViewReader(final AtomicLong corrupt, final long holdAt, final long extraNanos) {
            this.corrupt = corrupt;
            this.holdAt = holdAt;
            this.extraNanos = extraNanos;
        }

        void onView(final DirectBuffer view) {
            check(view);
            read++;
            if (holdAt > 0 && read == holdAt) {
                midView.countDown();
                final long bound = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
                while (!disposed && System.nanoTime() - bound < 0) {
                    check(view);
                }
                final long until = System.nanoTime() + extraNanos;
                while (System.nanoTime() - until < 0) {
                    check(view);
                }
                held = disposed;
            }
        }

        private void check(final DirectBuffer view) {
            long sum = 0;
            for (int i = 0; i < view.capacity(); i++) {
                sum += view.getByte(i);
            }
            if (sum != 0 || view.capacity() != 1000) {
                corrupt.incrementAndGet();
            }
        }
    }

    /** Disposes the server and waits until it, its runtime's loops and every file in the directory are gone. */
    private void disposeAndAwaitNothingLeft(final DisposableServer server) {
        server.dispose();
        assertThat(errorOf(server.onDispose())).as("the server's onDispose").isNull();
        awaitNothingLeft("at the end");
    }

    /** Waits until the directory is empty and no loop thread of this test's runtime is left. */
    private void awaitNothingLeft(final String when) {
        poll("the directory to be empty " + when).untilAsserted(() ->
            assertThat(ShmTestSupport.files(directory)).as("files in the directory %s", when).isEmpty());
        poll("the runtime's loops to end " + when).untilAsserted(() ->
            assertThat(newLoops()).as("loop threads of this test's runtime %s", when).isEmpty());
    }

    private static ConditionFactory poll(final String what) {
        return Awaitility.await(what).atMost(ShmTestSupport.BOUND).pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(2));
    }

    private static void awaitAtLeast(final AtomicLong counter, final long target, final String what) {
        poll(what).until(() -> counter.get() >= target);
    }

    private static Throwable errorOf(final Mono<?> mono) {
        return mono.then(Mono.<Throwable>empty()).onErrorResume(Mono::just).block(ShmTestSupport.BOUND);
    }

    private Thread startThread(final String name, final Runnable body) {
        return Thread.ofPlatform().daemon().name(name).start(() -> {
            try {
                body.run();
            } catch (final Throwable error) {
                threadFailures.add(error);
            }
        });
    }

    private static void join(final Thread thread, final String what) throws InterruptedException {
        thread.join(ShmTestSupport.BOUND);
        assertThat(thread.isAlive()).as("%s is still running after %s", what, ShmTestSupport.BOUND).isFalse();
    }

    private void assertNoThreadFailures() {
        assertThat(threadFailures).as("failures on the test's threads").isEmpty();
    }

    private static void await(final CountDownLatch latch) {
        try {
            if (!latch.await(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("not released within " + ShmTestSupport.BOUND);
            }
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static void spin(final int iterations) {
        for (int i = 0; i < iterations; i++) {
            Thread.onSpinWait();
        }
    }

    /**
     * A publisher whose elements come from the thread that calls {@link #emit}: as many as were requested (from
     * whichever thread), one at a time, so that the sender encodes them on that thread unless the loop is draining.
     */
    private static final class ThreadEmitter implements Publisher<String>, Subscription {
        private final AtomicLong requested = new AtomicLong();
        private final AtomicLong emitted;
        private volatile Subscriber<? super String> subscriber;
        private volatile boolean cancelled;

        ThreadEmitter(final AtomicLong emitted) {
            this.emitted = emitted;
        }

        @Override
        public void subscribe(final Subscriber<? super String> actual) {
            subscriber = actual;
            actual.onSubscribe(this);
        }

        @Override
        public void request(final long n) {
            if (n <= 0) {
                cancelled = true;
                subscriber.onError(new IllegalArgumentException("request(" + n + "): rule 3.9"));
                return;
            }
            requested.getAndAccumulate(n, Operators::addCap);
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        /** Emits what is requested, on this thread, until cancelled, {@code done}, or the bound passed. */
        void emit(final BooleanSupplier done) {
            final long deadline = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
            long next = 0;
            while (!cancelled && !done.getAsBoolean() && System.nanoTime() - deadline < 0) {
                if (requested.get() > 0) {
                    requested.decrementAndGet();
                    subscriber.onNext("e" + next++);
                    emitted.incrementAndGet();
                } else {
                    Thread.yield();
                }
            }
        }
    }
}
