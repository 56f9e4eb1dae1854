package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The lifecycle hooks: {@link RdmaServer#doOnConnection}, {@link RdmaClient#doOnConnected} and both sides'
 * {@code doOnDisconnected} run once per connection, with it, however it ends; a connected hook that throws closes
 * its connection.
 */
class ConnectionHooksTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void eachSideSeesEachConnectionBeginAndEndOnceWhenTheClientDisposesOfIt() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("hooks");
        final List<Connection> serverConnected = new CopyOnWriteArrayList<>();
        final List<Connection> serverDisconnected = new CopyOnWriteArrayList<>();
        final List<Connection> handled = new CopyOnWriteArrayList<>();
        final List<Connection> clientConnected = new CopyOnWriteArrayList<>();
        final List<Connection> clientDisconnected = new CopyOnWriteArrayList<>();
        final AtomicBoolean handledBeforeHook = new AtomicBoolean();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .doOnConnection(serverConnected::add)
            .doOnConnection(connection -> {
                if (handled.contains(connection)) {
                    handledBeforeHook.set(true);
                }
            })
            .doOnDisconnected(serverDisconnected::add)
            .handle((in, out) -> {
                handled.add(in.connection());
                return Mono.never();
            })
            .bindNow();
        try {
            final RdmaClient client = ShmTestSupport.client(directory, address)
                .doOnConnected(clientConnected::add)
                .doOnDisconnected(clientDisconnected::add);
            for (int round = 1; round <= 2; round++) {
                final Connection connection = client.connectNow();
                assertThat(clientConnected).as("the client's hook saw the connection connectNow() returned")
                    .hasSize(round).last().isSameAs(connection);
                awaitSize(handled, round);
                assertThat(serverConnected).as("the server's hook saw the connection its handler got")
                    .hasSize(round).last().isSameAs(handled.get(round - 1));
                assertThat(clientDisconnected).as("not yet ended").hasSize(round - 1);

                connection.dispose();
                awaitSize(clientDisconnected, round);
                awaitSize(serverDisconnected, round);
                assertThat(clientDisconnected.get(round - 1)).isSameAs(connection);
                assertThat(serverDisconnected.get(round - 1)).isSameAs(handled.get(round - 1));
            }
            Thread.sleep(200);
            assertThat(handledBeforeHook).as("the handler ran before the hooks").isFalse();
            assertThat(clientDisconnected).as("once per connection").hasSize(2);
            assertThat(serverDisconnected).as("once per connection").hasSize(2);
        } finally {
            server.dispose();
            server.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void aConnectionThatTheServerEndsIsReportedOnBothSides() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("hooks-end");
        final CompletableFuture<Connection> serverConnected = new CompletableFuture<>();
        final CompletableFuture<Connection> serverDisconnected = new CompletableFuture<>();
        final CompletableFuture<Connection> clientDisconnected = new CompletableFuture<>();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .doOnConnection(serverConnected::complete)
            .doOnDisconnected(serverDisconnected::complete)
            .handle((in, out) -> Mono.never())
            .bindNow();
        final Connection connection = ShmTestSupport.client(directory, address)
            .doOnDisconnected(clientDisconnected::complete)
            .connectNow();
        // the client's connect can complete before the server has handed its side to the hooks and the handler; the
        // disconnected hooks are owed only for connections that were (a server disposed before that drops it unseen)
        final Connection served = serverConnected.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS);
        server.dispose(); // ends the connection from the far side
        server.onDispose().block(ShmTestSupport.BOUND);
        assertThat(serverDisconnected).succeedsWithin(ShmTestSupport.BOUND).isSameAs(served);
        assertThat(clientDisconnected).as("the client hears that its peer went away")
            .succeedsWithin(ShmTestSupport.BOUND).isSameAs(connection);
        connection.dispose();
    }

    @Test
    void aServerHookThatThrowsClosesThatConnectionOnlyAndTheHandlerIsNotCalled() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("hooks-throw");
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger handled = new AtomicInteger();
        final AtomicInteger serverDisconnected = new AtomicInteger();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .doOnConnection(connection -> {
                if (connections.incrementAndGet() == 1) {
                    throw new IllegalStateException("refused by the hook");
                }
            })
            .doOnDisconnected(connection -> serverDisconnected.incrementAndGet())
            .handle((in, out) -> {
                handled.incrementAndGet();
                return Mono.never();
            })
            .bindNow();
        try {
            final CompletableFuture<Connection> firstEnded = new CompletableFuture<>();
            final Connection first = ShmTestSupport.client(directory, address)
                .doOnDisconnected(firstEnded::complete).connectNow();
            assertThat(firstEnded).as("the server closed the connection its hook failed on")
                .succeedsWithin(ShmTestSupport.BOUND).isSameAs(first);
            final Connection second = ShmTestSupport.client(directory, address).connectNow();
            awaitValue(handled, 1);
            awaitValue(serverDisconnected, 1); // the failed connection ended (its hook runs once it is freed)
            assertThat(second.isDisposed()).as("the next connection is served").isFalse();
            second.dispose();
            awaitValue(serverDisconnected, 2);
            Thread.sleep(200);
            assertThat(serverDisconnected).as("once per connection").hasValue(2);
        } finally {
            server.dispose();
            server.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void aClientHookThatThrowsFailsTheConnectWithWhatItThrew() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("hooks-client-throw");
        final AtomicInteger serverDisconnected = new AtomicInteger();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .doOnDisconnected(connection -> serverDisconnected.incrementAndGet())
            .bindNow();
        try {
            final CompletableFuture<Connection> ended = new CompletableFuture<>();
            final AtomicBoolean laterHookRan = new AtomicBoolean();
            final IllegalArgumentException thrown = new IllegalArgumentException("not this one");
            assertThatThrownBy(() -> ShmTestSupport.client(directory, address)
                .doOnConnected(connection -> {
                    throw thrown;
                })
                .doOnConnected(connection -> laterHookRan.set(true))
                .doOnDisconnected(ended::complete)
                .connectNow())
                .isSameAs(thrown);
            assertThat(laterHookRan).as("the hooks after the one that threw").isFalse();
            assertThat(ended).as("the connection was closed").succeedsWithin(ShmTestSupport.BOUND)
                .satisfies(connection -> assertThat(connection.isDisposed()).isTrue());
            awaitValue(serverDisconnected, 1);
        } finally {
            server.dispose();
            server.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void aDisconnectedHookThatThrowsIsLoggedAndTheOthersStillRun() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("hooks-dis-throw");
        final DisposableServer server = ShmTestSupport.server(directory, address).bindNow();
        try {
            final CompletableFuture<Connection> second = new CompletableFuture<>();
            final Connection connection = ShmTestSupport.client(directory, address)
                .doOnDisconnected(ignored -> {
                    throw new IllegalStateException("hook failure");
                })
                .doOnDisconnected(second::complete)
                .connectNow();
            connection.dispose();
            assertThat(second).succeedsWithin(ShmTestSupport.BOUND).isSameAs(connection);
        } finally {
            server.dispose();
            server.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void theServersHandlerAndHookSeeTheClientsProcessIdAndTheClientSeesTheListener() throws Exception {
        final String address = ShmTestSupport.uniqueAddress("peer");
        final CompletableFuture<String> hookSaw = new CompletableFuture<>();
        final CompletableFuture<String> handlerSaw = new CompletableFuture<>();
        final DisposableServer server = ShmTestSupport.server(directory, address)
            .doOnConnection(connection -> hookSaw.complete(connection.peer()))
            .handle((in, out) -> {
                handlerSaw.complete(in.connection().peer());
                return Mono.never();
            })
            .bindNow();
        try {
            final Connection connection = ShmTestSupport.client(directory, address).connectNow();
            final long pid = ProcessHandle.current().pid();
            assertThat(handlerSaw).succeedsWithin(ShmTestSupport.BOUND).asString()
                .as("the client's process id and device").startsWith("process " + pid + ", device " + pid + "-")
                .contains("queue pair ");
            assertThat(hookSaw).succeedsWithin(ShmTestSupport.BOUND).isEqualTo(handlerSaw.get());
            assertThat(connection.peer()).as("the client sees the server's listener")
                .startsWith("listener '" + address + "', device " + pid + "-");
            connection.dispose();
        } finally {
            server.dispose();
            server.onDispose().block(ShmTestSupport.BOUND);
        }
    }

    @Test
    void hooksMustNotBeNull() {
        assertThatThrownBy(() -> RdmaServer.create().doOnConnection(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RdmaServer.create().doOnDisconnected(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RdmaClient.create().doOnConnected(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RdmaClient.create().doOnDisconnected(null)).isInstanceOf(NullPointerException.class);
    }

    private static void awaitSize(final List<?> list, final int size) throws InterruptedException {
        final long deadline = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
        while (list.size() < size && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(list).hasSize(size);
    }

    private static void awaitValue(final AtomicInteger value, final int expected) throws InterruptedException {
        final long deadline = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
        while (value.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(value).hasValue(expected);
    }
}
