package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.function.Tuple2;
import reactor.util.function.Tuples;

/**
 * The runtime as docs/threading.md describes it: one runtime shared by the clients and servers of a process that ask
 * for the same provider, directory and idle strategy, with a fixed number of loop threads however many connections
 * it serves; a runtime of one's own through {@code runOn}, alive until its owner and its last user are gone; invoker
 * mode, where the application's thread is the loop; inbound signals on the loop, where blocking fails; requests that
 * wait for free streams; and connects cancelled before they answered, which leave nothing behind at the server.
 *
 * <p>Every wait is bounded and generous; nothing asserts how long anything took.
 */
class RuntimeTest extends RuntimeTestFixture {

    private static List<String> names(final List<Thread> threads) {
        return threads.stream().map(Thread::getName).sorted().toList();
    }

    private List<String> queuePairFiles() {
        return ShmTestSupport.files(directory).stream().filter(name -> name.contains(".qp")).toList();
    }

    private void awaitFiles(final List<String> expected, final String what) {
        Awaitility.await(what).atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(ShmTestSupport.files(directory)).as(what).isEqualTo(expected));
    }

    private static void awaitEnded(final List<String> threads) {
        Awaitility.await("threads " + threads + " to end").atMost(ShmTestSupport.BOUND).untilAsserted(() ->
            assertThat(ShmTestSupport.runtimeThreads("rdma-")).as("runtime threads")
                .doesNotContainAnyElementsOf(threads));
    }

    private static Throwable errorOf(final Mono<?> mono) {
        return mono.then(Mono.<Throwable>empty()).onErrorResume(Mono::just).block(ShmTestSupport.BOUND);
    }

    /** Echoes the connection's own stream; answers requests with the request in upper case. */
    private static RdmaServer echoing(final RdmaServer server) {
        return server.handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase),
                Codecs.UTF8_STRING));
    }

    /**
     * @return the server's answer to a request (its upper case): proves the connection works without ending it (a
     *     cancelled inbound subscription of the connection's own stream would end the echo handler, and with it
     *     the connection)
     */
    private static String ask(final Connection connection, final String request) {
        return connection.requestResponse(request, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND);
    }

    // ------------------------------------------------------------------------------------------------ sharing

    @Test
    void clientsAndAServerOfOneConfigurationShareOneRuntimeWhoseLoopsDoNotGrowWithConnectionsAndStopWithTheLast() {
        final String address = ShmTestSupport.uniqueAddress("shared");
        final DisposableServer server = track(echoing(ShmTestSupport.server(directory, address)).bind()
            .block(ShmTestSupport.BOUND));
        final List<String> serverFiles = ShmTestSupport.files(directory);
        final List<String> devices = ShmTestSupport.deviceIds(directory);
        assertThat(devices).as("the server's shm device").hasSize(1);
        final List<String> loops = newLoops();
        assertThat(loops).as("the shared runtime's event loops").hasSize(RdmaRuntime.defaultLoops())
            .allMatch(name -> name.startsWith("rdma-loop-shm-"));

        final int count = 50;
        final List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            connections.add(track(ShmTestSupport.client(directory, address).rings(4, 4096).connect()
                .block(ShmTestSupport.BOUND)));
            assertThat(newLoops()).as("loop threads with %d connections", i + 1).isEqualTo(loops);
        }
        assertThat(ShmTestSupport.deviceIds(directory)).as("the clients run on the server's runtime and device")
            .isEqualTo(devices);
        assertThat(ShmTestSupport.runtimeThreads(devices.get(0))).as("the device's connection manager").hasSize(1);

        final List<String> answers = Flux.range(0, count)
            .flatMap(i -> connections.get(i).requestResponse("connection " + i, Codecs.UTF8_STRING,
                Codecs.UTF8_STRING))
            .collectList().block(ShmTestSupport.BOUND);
        assertThat(answers).as("one answer on each connection")
            .containsExactlyInAnyOrderElementsOf(Flux.range(0, count).map(i -> "CONNECTION " + i).collectList()
                .block());
        assertThat(newLoops()).as("loop threads while %d connections work", count).isEqualTo(loops);

        for (final Connection connection : connections) {
            connection.dispose();
        }
        for (final Connection connection : connections) {
            assertThat(errorOf(connection.onDispose())).as("onDispose of %s", connection).isNull();
        }
        // the server's sides of the connections close once the clients' did (see also
        // disposingAServerRightAfterAHundredClientsLeftReleasesEverything)
        awaitFiles(serverFiles, "the directory holds only the server's files again");
        assertThat(newLoops()).as("the server still holds the runtime: its loops").isEqualTo(loops);
        server.dispose();
        assertThat(errorOf(server.onDispose())).as("the server's onDispose").isNull();

        awaitEnded(loops);
        awaitFiles(List.of(), "the directory is empty once the last user of the runtime is gone");
        awaitEnded(List.of("rdma-shm-cm-" + devices.get(0)));
    }

    /**
     * A server disposed right after many clients disposed their connections: the server's sides of those connections
     * still close (on the loop) when {@code dispose()} runs, which waits for them. It returns, its onDispose
     * completes, and the runtime it held stops.
     */
    @Test
    void disposingAServerRightAfterAHundredClientsLeftReleasesEverything() {
        final String address = ShmTestSupport.uniqueAddress("hundred-left");
        final DisposableServer server = track(echoing(ShmTestSupport.server(directory, address)).bind()
            .block(ShmTestSupport.BOUND));
        final List<String> loops = newLoops();
        final List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            connections.add(track(ShmTestSupport.client(directory, address).rings(4, 4096).connect()
                .block(ShmTestSupport.BOUND)));
        }
        for (final Connection connection : connections) {
            connection.dispose();
        }
        for (final Connection connection : connections) {
            assertThat(errorOf(connection.onDispose())).as("onDispose of %s", connection).isNull();
        }

        assertThatCode(server::dispose).as("disposing the server").doesNotThrowAnyException();
        assertThat(errorOf(server.onDispose())).as("the server's onDispose").isNull();
        awaitEnded(loops);
        awaitFiles(List.of(), "the directory is empty once the last user of the runtime is gone");
    }

    /**
     * A server disposed by code that runs on a loop (a handler that ends the server when told to): disposing
     * returns, the server's onDispose completes, and its runtime stops once its clients are gone.
     */
    @Test
    void aServerDisposedFromItsOwnLoopThreadIsDisposed() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("stop-from-loop");
        final AtomicReference<DisposableServer> self = new AtomicReference<>();
        final CompletableFuture<Throwable> disposing = new CompletableFuture<>();
        final AtomicReference<String> disposedOn = new AtomicReference<>();
        final DisposableServer server = track(ShmTestSupport.server(directory, address)
            .handle((in, out) -> in.receive(Codecs.UTF8_STRING)
                .doOnNext(message -> {
                    if ("stop".equals(message)) {
                        disposedOn.set(Thread.currentThread().getName());
                        try {
                            self.get().dispose();
                            disposing.complete(null);
                        } catch (final Throwable ex) {
                            disposing.complete(ex);
                        }
                    }
                })
                .then())
            .bind().block(ShmTestSupport.BOUND));
        self.set(server);
        final List<String> loops = newLoops();
        final Connection connection = track(ShmTestSupport.client(directory, address).connect()
            .block(ShmTestSupport.BOUND));
        connection.outbound().send(Flux.just("stop"), Codecs.UTF8_STRING).block(ShmTestSupport.BOUND);

        final Throwable thrown = disposing.get(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(disposedOn.get()).as("where the handler disposed the server").startsWith("rdma-loop-");
        assertThat(thrown).as("what server.dispose() threw on %s", disposedOn.get()).isNull();
        assertThat(errorOf(server.onDispose())).as("the server's onDispose").isNull();
        errorOf(connection.onDispose()); // the server ended it
        connection.dispose();
        awaitEnded(loops);
        awaitFiles(List.of(), "the directory is empty");
    }

    @Test
    void aRuntimeOnANamedDeviceServesAndABlankNameIsRefused() {
        assertThatThrownBy(() -> RdmaRuntime.builder().device(" ")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("device");
        final RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").device("shm-node-a").directory(directory)
            .idleStrategy("backoff").build();
        try {
            final String address = ShmTestSupport.uniqueAddress("named-device");
            final DisposableServer server = RdmaServer.create().runOn(runtime).address(address)
                .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
                .bind().block(ShmTestSupport.BOUND);
            final Connection connection = RdmaClient.create().runOn(runtime).address(address).connect()
                .block(ShmTestSupport.BOUND);
            final List<String> echoes = connection.inbound().receive(Codecs.UTF8_STRING).take(3).collectList()
                .doOnSubscribe(subscription -> connection.outbound()
                    .send(Flux.just("a", "b", "c"), Codecs.UTF8_STRING).subscribe())
                .block(ShmTestSupport.BOUND);
            assertThat(echoes).containsExactly("a", "b", "c");
            connection.dispose();
            server.dispose();
        } finally {
            runtime.dispose();
        }
    }

    @Test
    void aClientWithAnotherIdleStrategyGetsARuntimeOfItsOwn() {
        final String address = ShmTestSupport.uniqueAddress("other-idle");
        final DisposableServer server = track(echoing(ShmTestSupport.server(directory, address)).bind()
            .block(ShmTestSupport.BOUND));
        final List<String> serverDevices = ShmTestSupport.deviceIds(directory);
        final List<String> serverLoops = newLoops();

        final Connection connection = track(ShmTestSupport.client(directory, address).idleStrategy("sleeping:1ms")
            .connect().block(ShmTestSupport.BOUND));
        assertThat(ShmTestSupport.deviceIds(directory)).as("devices: the server's and the other runtime's")
            .hasSize(2).containsAll(serverDevices);
        final List<String> clientLoops = newLoops().stream().filter(name -> !serverLoops.contains(name)).toList();
        assertThat(clientLoops).as("the other runtime's loops").hasSize(RdmaRuntime.defaultLoops());
        assertThat(ask(connection, "across runtimes")).isEqualTo("ACROSS RUNTIMES");

        connection.dispose();
        assertThat(errorOf(connection.onDispose())).isNull();
        awaitEnded(clientLoops);
        assertThat(newLoops()).as("the server's runtime goes on").isEqualTo(serverLoops);
        server.dispose();
        awaitEnded(serverLoops);
        awaitFiles(List.of(), "the directory is empty");
    }

    // ------------------------------------------------------------------------------------------------ runOn

    private RdmaRuntime ownRuntime() {
        return track(RdmaRuntime.builder().provider("shm").directory(directory).idleStrategy("backoff").loops(2)
            .build());
    }

    @Test
    void aRuntimeOfOnesOwnServesItsConnectionsAndLivesUntilDisposedAfterTheyAreGone() {
        final RdmaRuntime runtime = ownRuntime();
        final List<String> loops = names(runtime.threads());
        assertThat(loops).as("its loops").hasSize(2).allMatch(name -> name.startsWith("rdma-loop-" + runtime.name()));
        assertThat(newLoops()).as("the loops started").isEqualTo(loops);

        final String address = ShmTestSupport.uniqueAddress("own");
        // neither says provider or directory: the runtime's apply
        final DisposableServer server = track(echoing(RdmaServer.create()).runOn(runtime).address(address).bind()
            .block(ShmTestSupport.BOUND));
        final Connection connection = track(RdmaClient.create().runOn(runtime).address(address).connect()
            .block(ShmTestSupport.BOUND));
        assertThat(ask(connection, "on my runtime")).isEqualTo("ON MY RUNTIME");
        assertThat(newLoops()).as("no loop beyond the runtime's (no shared runtime started)").isEqualTo(loops);

        connection.dispose();
        assertThat(errorOf(connection.onDispose())).isNull();
        server.dispose();
        assertThat(errorOf(server.onDispose())).isNull();
        assertThat(runtime.threads()).as("its loops while its owner holds it").allMatch(Thread::isAlive);
        assertThat(runtime.isDisposed()).isFalse();

        // still usable: a new server and client on it
        final String again = ShmTestSupport.uniqueAddress("own-again");
        final DisposableServer second = track(echoing(RdmaServer.create()).runOn(runtime).address(again).bind()
            .block(ShmTestSupport.BOUND));
        final Connection another = track(RdmaClient.create().runOn(runtime).address(again).connect()
            .block(ShmTestSupport.BOUND));
        assertThat(ask(another, "again")).isEqualTo("AGAIN");
        another.dispose();
        assertThat(errorOf(another.onDispose())).isNull();
        second.dispose();

        runtime.dispose();
        assertThat(runtime.isDisposed()).isTrue();
        awaitEnded(loops);
        awaitFiles(List.of(), "the directory is empty once the runtime is disposed");
    }

    @Test
    void aRuntimeOfOnesOwnDisposedWhileInUseLivesUntilItsLastConnectionAndServerAreGone() {
        final RdmaRuntime runtime = ownRuntime();
        final List<String> loops = names(runtime.threads());
        final String address = ShmTestSupport.uniqueAddress("own-first");
        final DisposableServer server = track(echoing(RdmaServer.create()).runOn(runtime).address(address).bind()
            .block(ShmTestSupport.BOUND));
        final Connection connection = track(RdmaClient.create().runOn(runtime).address(address).connect()
            .block(ShmTestSupport.BOUND));

        runtime.dispose();
        assertThat(runtime.isDisposed()).isTrue();
        assertThat(runtime.threads()).as("its loops while a connection and a server use it").allMatch(Thread::isAlive);
        assertThat(ask(connection, "still here")).isEqualTo("STILL HERE");

        final Throwable late = errorOf(RdmaClient.create().runOn(runtime).address(address).connect());
        assertThat(late).as("connecting on the disposed runtime").isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(runtime.name());

        connection.dispose();
        assertThat(errorOf(connection.onDispose())).isNull();
        assertThat(runtime.threads()).as("its loops while the server uses it").allMatch(Thread::isAlive);
        server.dispose();
        assertThat(errorOf(server.onDispose())).isNull();

        awaitEnded(loops);
        awaitFiles(List.of(), "the directory is empty once the runtime's last user is gone");
    }

    @Test
    void runOnADisposedRuntimeFailsWithAnIllegalStateExceptionNamingIt() {
        final RdmaRuntime runtime = ownRuntime();
        final List<String> loops = names(runtime.threads());
        runtime.dispose();
        awaitEnded(loops);

        final Throwable connect = errorOf(RdmaClient.create().runOn(runtime).address("nobody").connect());
        assertThat(connect).as("connect on a disposed runtime").isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(runtime.name()).hasMessageContaining("disposed");
        final Throwable bind = errorOf(RdmaServer.create().runOn(runtime).address("nobody").bind());
        assertThat(bind).as("bind on a disposed runtime").isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(runtime.name()).hasMessageContaining("disposed");
        assertThat(newLoops()).as("no runtime started instead").isEmpty();
        awaitFiles(List.of(), "the directory is empty");
    }

    // ------------------------------------------------------------------------------------------------ invoker

    /** Drives the invoker runtime on the calling thread until the condition holds or the bound passes. */
    private static void driveUntil(final RdmaRuntime runtime, final java.util.function.BooleanSupplier done,
                                   final String what) {
        final long deadline = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
        while (!done.getAsBoolean() && System.nanoTime() - deadline < 0) {
            if (runtime.doWork() == 0) {
                Thread.onSpinWait();
            }
        }
        assertThat(done.getAsBoolean()).as(what).isTrue();
    }

    @Test
    void inInvokerModeNoLoopThreadRunsAndInboundSignalsRunOnTheThreadThatCallsDoWork() {
        final RdmaRuntime runtime = track(RdmaRuntime.builder().provider("shm").directory(directory).invoker()
            .build());
        assertThat(runtime.isInvoker()).isTrue();
        assertThat(runtime.threads()).as("its threads").isEmpty();
        final Thread me = Thread.currentThread();
        final AtomicReference<Thread> handledOn = new AtomicReference<>();
        final String address = ShmTestSupport.uniqueAddress("invoker");
        final DisposableServer server = track(RdmaServer.create().runOn(runtime).address(address)
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .handleStreams((kind, in, out) -> {
                handledOn.set(Thread.currentThread());
                return out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase), Codecs.UTF8_STRING);
            })
            .bind().block(ShmTestSupport.BOUND));
        final List<String> serverFiles = ShmTestSupport.files(directory);
        final Connection connection = track(RdmaClient.create().runOn(runtime).address(address).connect()
            .block(ShmTestSupport.BOUND));
        assertThat(newLoops()).as("loop threads").isEmpty();

        final AtomicReference<String> answer = new AtomicReference<>();
        final AtomicReference<Thread> answeredOn = new AtomicReference<>();
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        connection.requestResponse("ping", Codecs.UTF8_STRING, Codecs.UTF8_STRING).subscribe(value -> {
            answeredOn.set(Thread.currentThread());
            answer.set(value);
        }, failed::set);
        driveUntil(runtime, () -> answer.get() != null || failed.get() != null, "an answer or an error arrived");
        assertThat(failed.get()).as("the request's error").isNull();
        assertThat(answer).hasValue("PING");
        assertThat(answeredOn).as("where the answer was delivered").hasValue(me);
        assertThat(handledOn).as("where the server's handler ran").hasValue(me);

        final ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Thread> receivedOn = new ConcurrentLinkedQueue<>();
        track(connection.inbound().receive(Codecs.UTF8_STRING).subscribe(value -> {
            receivedOn.add(Thread.currentThread());
            received.add(value);
        }));
        track(connection.outbound().send(Flux.range(0, 100).map(i -> "m" + i), Codecs.UTF8_STRING).subscribe());
        driveUntil(runtime, () -> received.size() == 100, "100 echoes arrived");
        assertThat(received).startsWith("m0", "m1").endsWith("m99");
        assertThat(receivedOn).as("where onNext ran").containsOnly(me);
        assertThat(newLoops()).as("loop threads").isEmpty();

        // ending everything needs the loops too: this thread drives them
        connection.dispose();
        final AtomicReference<Throwable> disposed = new AtomicReference<>();
        final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
        connection.onDispose().subscribe(null, error -> {
            disposed.set(error);
            ended.set(true);
        }, () -> ended.set(true));
        driveUntil(runtime, ended::get, "the connection closed");
        assertThat(disposed.get()).as("onDispose's error").isNull();
        driveUntil(runtime, () -> ShmTestSupport.files(directory).equals(serverFiles),
            "the server side of the connection closed too");
        server.dispose();
        runtime.dispose();
        awaitFiles(List.of(), "the directory is empty once the invoker runtime is disposed");
    }

    /**
     * In invoker mode the application's thread is the loop: disposing a server from it, with a connection still open,
     * must not wait for the loop it is (that would wait until the server's close timeout and fail); driving the
     * runtime afterwards finishes the closes.
     */
    @Test
    void inInvokerModeAServerDisposedFromTheDrivingThreadWithAConnectionOpenIsDisposed() {
        final RdmaRuntime runtime = track(RdmaRuntime.builder().provider("shm").directory(directory).invoker()
            .build());
        final String address = ShmTestSupport.uniqueAddress("invoker-dispose");
        final DisposableServer server = track(echoing(RdmaServer.create()).runOn(runtime).address(address).bind()
            .block(ShmTestSupport.BOUND));
        final Connection connection = track(RdmaClient.create().runOn(runtime).address(address).connect()
            .block(ShmTestSupport.BOUND));
        final AtomicReference<String> answer = new AtomicReference<>();
        connection.requestResponse("ping", Codecs.UTF8_STRING, Codecs.UTF8_STRING).subscribe(answer::set);
        driveUntil(runtime, () -> answer.get() != null, "the answer arrived");

        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            server.dispose();
        } catch (final Throwable ex) {
            thrown.set(ex);
        }
        assertThat(thrown.get()).as("what server.dispose() on the driving thread threw").isNull();
        final java.util.concurrent.atomic.AtomicBoolean serverEnded = new java.util.concurrent.atomic.AtomicBoolean();
        final java.util.concurrent.atomic.AtomicBoolean connectionEnded =
            new java.util.concurrent.atomic.AtomicBoolean();
        server.onDispose().onErrorComplete().subscribe(null, null, () -> serverEnded.set(true));
        connection.onDispose().onErrorComplete().subscribe(null, null, () -> connectionEnded.set(true));
        driveUntil(runtime, () -> serverEnded.get() && connectionEnded.get(),
            "the server and the connection it ended closed");
        connection.dispose();
        runtime.dispose();
        awaitFiles(List.of(), "the directory is empty");
    }

    // ------------------------------------------------------------------------------------------------ loops

    @Test
    void anInboundSubscriberRunsOnALoopThreadWhereBlockFailsWithAnErrorDeliveredToIt() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("no-block");
        final DisposableServer server = track(echoing(ShmTestSupport.server(directory, address)).bind()
            .block(ShmTestSupport.BOUND));
        final Connection connection = track(ShmTestSupport.client(directory, address).connect()
            .block(ShmTestSupport.BOUND));

        final AtomicReference<String> onNextThread = new AtomicReference<>();
        final CompletableFuture<Throwable> failed = new CompletableFuture<>();
        connection.inbound().receive(Codecs.UTF8_STRING)
            .doOnNext(value -> {
                onNextThread.set(Thread.currentThread().getName());
                // a blocking call on the loop (not Mono.just or fromCallable: their block() returns without checking)
                Mono.delay(Duration.ofMillis(1)).thenReturn(value).block();
            })
            .subscribe(value -> failed.completeExceptionally(new AssertionError("block() on the loop returned")),
                failed::complete, () -> failed.complete(null));
        connection.outbound().send(Flux.just("ping"), Codecs.UTF8_STRING).block(ShmTestSupport.BOUND);

        final Throwable error = failed.get(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(onNextThread.get()).as("where onNext ran").startsWith("rdma-loop-");
        assertThat(error).as("what the subscriber got").isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("block()").hasMessageContaining("not supported")
            .hasMessageContaining(onNextThread.get());
        server.dispose();
    }

    @Test
    void blockingAfterPublishOnLeavesTheLoopAndWorks() {
        final String address = ShmTestSupport.uniqueAddress("publish-on");
        final DisposableServer server = track(echoing(ShmTestSupport.server(directory, address)).bind()
            .block(ShmTestSupport.BOUND));
        final Connection connection = track(ShmTestSupport.client(directory, address).connect()
            .block(ShmTestSupport.BOUND));
        final ConcurrentLinkedQueue<String> threads = new ConcurrentLinkedQueue<>();
        final Mono<List<String>> received = connection.inbound().receive(Codecs.UTF8_STRING)
            .publishOn(Schedulers.boundedElastic())
            .map(value -> {
                threads.add(Thread.currentThread().getName());
                return Mono.delay(Duration.ofMillis(1)).thenReturn(value.toUpperCase()).block();
            })
            .take(10).collectList().cache();
        received.subscribe();
        connection.outbound().send(Flux.range(0, 10).map(i -> "m" + i), Codecs.UTF8_STRING)
            .block(ShmTestSupport.BOUND);
        assertThat(received.block(ShmTestSupport.BOUND)).hasSize(10).startsWith("M0").endsWith("M9");
        assertThat(threads).as("where the blocking calls ran").noneMatch(name -> name.startsWith("rdma-loop-"));
        server.dispose();
    }

    // ------------------------------------------------------------------------------------------------ streams

    @Test
    void aHundredCallsInFlightAllGetTheirOwnAnswerAndReachTheServerInTheOrderTheyWereMade() {
        final String address = ShmTestSupport.uniqueAddress("hundred");
        final ConcurrentLinkedQueue<String> arrivals = new ConcurrentLinkedQueue<>();
        final DisposableServer server = track(ShmTestSupport.server(directory, address)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next().doOnNext(arrivals::add)
                .map(request -> "answer to " + request), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND));
        final Connection connection = track(ShmTestSupport.client(directory, address).connect()
            .block(ShmTestSupport.BOUND));

        final int requests = 100;
        final List<Tuple2<Integer, String>> answers = Flux.range(0, requests)
            .flatMap(i -> connection.requestResponse("r" + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .map(answer -> Tuples.of(i, answer)), requests)
            .collectList().block(ShmTestSupport.BOUND);

        assertThat(answers).as("answers").hasSize(requests);
        for (final Tuple2<Integer, String> answer : answers) {
            assertThat(answer.getT2()).as("the answer to request %d", answer.getT1())
                .isEqualTo("answer to r" + answer.getT1());
        }
        // calls made on one thread go out on the connection's call stream in that order, and are served in it
        final List<String> expected = new java.util.ArrayList<>();
        for (int i = 0; i < requests; i++) {
            expected.add("r" + i);
        }
        assertThat(List.copyOf(arrivals)).as("requests in the order they reached the server").isEqualTo(expected);
        server.dispose();
    }

    // ------------------------------------------------------------------------------------------------ cancel

    @Test
    void aConnectCancelledBeforeItAnsweredLeavesNoConnectionAtTheServer() {
        final String address = ShmTestSupport.uniqueAddress("cancel-connect");
        final AtomicInteger handled = new AtomicInteger();
        final AtomicInteger active = new AtomicInteger();
        final DisposableServer server = track(ShmTestSupport.server(directory, address).maxConnections(1)
            .handle((in, out) -> {
                handled.incrementAndGet();
                active.incrementAndGet();
                return in.receive(Codecs.UTF8_STRING).then().onErrorComplete()
                    .doFinally(signal -> active.decrementAndGet());
            })
            .bind().block(ShmTestSupport.BOUND));
        final List<String> serverFiles = ShmTestSupport.files(directory);
        final List<String> serverQueuePairs = queuePairFiles();
        final RdmaClient client = ShmTestSupport.client(directory, address);

        final int rounds = 10;
        int made = 0;
        for (int round = 0; round < rounds; round++) {
            // through timeout: cancelled as soon as the 1 ns timer fires
            final Connection won = client.connect().timeout(Duration.ofNanos(1))
                .onErrorResume(TimeoutException.class, timeout -> Mono.empty()).block(ShmTestSupport.BOUND);
            if (won != null) {
                won.dispose(); // the connection came first: it is this test's to end
            }
            awaitNothingLeft(++made, handled, active, serverFiles, serverQueuePairs, "round " + round + " (timeout)");

            // by disposing the subscription right after subscribing; a connection that won the race anyway (the
            // loop may deliver it before the dispose, or while it runs) is the subscriber's, which ends it at once
            client.connect().subscribe(Connection::dispose).dispose();
            awaitNothingLeft(++made, handled, active, serverFiles, serverQueuePairs, "round " + round + " (dispose)");
        }

        // the server (at most one connection) serves the next client: no cancelled connect holds its slot
        final Connection connection = track(client.connect().block(ShmTestSupport.BOUND));
        Awaitility.await("the handler of the real connection").atMost(ShmTestSupport.BOUND)
            .untilAsserted(() -> assertThat(active).hasValue(1));
        connection.dispose();
        assertThat(errorOf(connection.onDispose())).isNull();
        server.dispose();
        awaitFiles(List.of(), "the directory is empty");
    }

    private void awaitNothingLeft(final int connects, final AtomicInteger handled, final AtomicInteger active,
                                  final List<String> serverFiles, final List<String> serverQueuePairs,
                                  final String what) {
        Awaitility.await(what + ": the cancelled connection is gone").atMost(ShmTestSupport.BOUND)
            .untilAsserted(() -> {
                assertThat(handled).as("%s: connections the server's handler saw", what).hasValue(connects);
                assertThat(active).as("%s: connections the server's handler serves", what).hasValue(0);
                assertThat(queuePairFiles()).as("%s: queue pair files", what).isEqualTo(serverQueuePairs);
                assertThat(ShmTestSupport.files(directory)).as("%s: files", what).isEqualTo(serverFiles);
            });
    }
}
