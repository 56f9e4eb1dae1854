package io.rdmareactive.samples.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaConnectionException;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.codec.Codecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

/**
 * Runs what the docs' snippets start, on the shared-memory provider, and checks that they do what the pages say they
 * do: the echo echoes, each interaction model answers, hooks and blocking shortcuts connect, runtimes of one's own and
 * invoker mode work, codecs are picked by type, a one-sided READ reads the owner's memory, a client reconnects, a
 * shared secret admits only its holders, and {@code publishOn} moves blocking work off the event loop.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DocExamplesTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void theEchoSendsBackEveryMessageUpperCased() {
        assertThat(UpperCaseEcho.echo(List.of("hello", "over", "shm"))).containsExactly("HELLO", "OVER", "SHM");
    }

    @Test
    void eachInteractionModelIsAnswered() {
        final Queue<String> fired = new ConcurrentLinkedQueue<>();
        final DisposableServer server = InteractionModels.serve(fired);
        try {
            final Connection connection = RdmaClient.create().provider("shm").address(server.address()).connectNow();
            final InteractionModels.Answers answers = InteractionModels.ask(connection);
            assertThat(answers.answer()).isEqualTo("ACME");
            assertThat(answers.items()).containsExactly("item 1", "item 2", "item 3");
            assertThat(answers.echoes()).containsExactly("a!", "b!", "c!");
            assertThat(answers.calls()).isEqualTo(10_000);
            Awaitility.await().atMost(BOUND).until(() -> fired.contains("audit: session started"));
            connection.dispose();
        } finally {
            server.dispose();
            server.onDispose().block(BOUND);
        }
    }

    @Test
    void theBlockingShortcutsConnectToAServerAtAFreshName() {
        final Conveniences.Pair pair = Conveniences.connected();
        try {
            assertThat(pair.server().address()).isNotBlank();
            assertThat(pair.connection().peer()).contains("listener '" + pair.server().address() + "'");
            final List<String> echoed = pair.connection().inbound().receive(Codecs.UTF8_STRING).collectList()
                .zipWith(pair.connection().outbound().send(Flux.just("one", "two"), Codecs.UTF8_STRING)
                    .thenReturn(true), (received, sent) -> received)
                .block(BOUND);
            assertThat(echoed).containsExactly("one", "two");
        } finally {
            pair.connection().dispose();
            pair.server().dispose();
            pair.server().onDispose().block(BOUND);
        }
    }

    @Test
    void aRuntimeOfOnesOwnAndAnInvokerRuntimeBothCall() {
        final DisposableServer server = RdmaServer.create().provider("shm")
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bindNow();
        try {
            assertThat(OwnRuntime.call(server.address())).isEqualTo("ping");
            assertThat(assertTimeoutPreemptively(BOUND, () -> InvokerLoop.call(server.address()))).isEqualTo("ping");
        } finally {
            server.dispose();
            server.onDispose().block(BOUND);
        }
    }

    @Test
    void codecsArePickedByTypeOrNamedAtTheCall() {
        final TypedMessages.Answers answers = TypedMessages.exchange();
        assertThat(answers.answer()).isEqualTo("ACME");
        assertThat(answers.fills()).containsExactly(new Fill(1, 10), new Fill(2, 5));
    }

    @Test
    void aOneSidedReadSeesWhatTheOwnerWrote() {
        assertThat(RemoteTable.readAnswer()).isEqualTo(42L);
    }

    @Test
    void aClientStartedBeforeItsServerConnectsOnceTheServerIsUp() throws Exception {
        final String address = "docs-reconnect-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final CompletableFuture<Connection> connecting = Reconnecting.connection(address).toFuture();
        final DisposableServer server = RdmaServer.create().provider("shm").address(address)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bindNow();
        try {
            final Connection connection = connecting.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertThat(connection.requestResponse("back", Codecs.UTF8_STRING, Codecs.UTF8_STRING).block(BOUND))
                .isEqualTo("back");
            connection.dispose();
        } finally {
            server.dispose();
            server.onDispose().block(BOUND);
        }
    }

    @Test
    void aSharedSecretAdmitsItsHoldersOnly(@TempDir final Path directory) throws IOException {
        final byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        final Path file = Files.write(directory.resolve("rdma.secret"), secret);
        final SharedSecret.Pair pair = SharedSecret.connect(file,
            (kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING));
        try {
            assertThat(pair.connection().requestResponse("mine", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(BOUND)).isEqualTo("mine");
            final byte[] other = new byte[32];
            new SecureRandom().nextBytes(other);
            assertThatThrownBy(() -> RdmaClient.create().provider("shm").address(pair.server().address()).secret(other)
                .connectNow()).isInstanceOf(RdmaConnectionException.class);
        } finally {
            pair.connection().dispose();
            pair.server().dispose();
            pair.server().onDispose().block(BOUND);
        }
    }

    @Test
    void publishOnRunsTheBlockingStoreOffTheEventLoop() {
        final CodecRegistry codecs = CodecRegistry.defaults().with(Order.class, new OrderCodec());
        final DisposableServer server = RdmaServer.create().provider("shm").codecs(codecs)
            .handle((in, out) -> out.send(Flux.range(1, 100).map(i -> new Order(i, i)), Order.class))
            .bindNow();
        final Queue<String> threads = new ConcurrentLinkedQueue<>();
        try {
            final Connection connection = RdmaClient.create().provider("shm").address(server.address()).codecs(codecs)
                .connectNow();
            final List<Long> saved = OffTheLoop.saveAll(connection, order -> {
                threads.add(Thread.currentThread().getName());
                return order.id();
            }).collectList().block(BOUND);
            assertThat(saved).hasSize(100).startsWith(1L, 2L, 3L).endsWith(100L);
            assertThat(threads).allSatisfy(thread -> assertThat(thread).startsWith("boundedElastic-"));
            connection.dispose();
        } finally {
            server.dispose();
            server.onDispose().block(BOUND);
        }
    }
}
