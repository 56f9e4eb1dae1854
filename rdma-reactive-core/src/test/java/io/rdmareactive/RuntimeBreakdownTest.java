package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * A VM error outside any one connection's work (a fault in a loop task, as an access to memory that went away would
 * raise) breaks the event loop down: no subscriber is left waiting, every connection of the loop ends at once with
 * the cause, and the runtime says it is broken and serves no new client; the process's shared runtime is replaced.
 */
class RuntimeBreakdownTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void aFaultInALoopTaskEndsEveryConnectionOfTheLoopWithItsCauseAndTheRuntimeSaysItIsBroken() {
        final RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").directory(directory).idleStrategy("backoff")
            .build();
        final String address = ShmTestSupport.uniqueAddress("breakdown");
        final DisposableServer server = ShmTestSupport.server(directory, address).runOn(runtime)
            .handleStreams((kind, in, out) -> out.send(Flux.never(), Codecs.BYTE_ARRAY))
            .bind().block(ShmTestSupport.BOUND);
        final Connection first = ShmTestSupport.client(directory, address).runOn(runtime).connect()
            .block(ShmTestSupport.BOUND);
        final Connection second = ShmTestSupport.client(directory, address).runOn(runtime).connect()
            .block(ShmTestSupport.BOUND);
        try {
            // a stream whose answers never come: its subscriber waits until something ends it
            final AtomicReference<Throwable> streamError = new AtomicReference<>();
            first.requestStream(new byte[] {1}, Codecs.BYTE_ARRAY, Codecs.BYTE_ARRAY)
                .subscribe(ignored -> { }, streamError::set);
            final AtomicReference<Throwable> disposed = new AtomicReference<>();
            second.onDispose().subscribe(null, disposed::set);
            assertThat(runtime.failure()).isEmpty();

            ((DefaultConnection) first).onLoop(() -> {
                throw new InternalError("simulated fault in a loop task");
            });

            Awaitility.await("the waiting stream ended").atMost(ShmTestSupport.BOUND)
                .until(() -> streamError.get() != null);
            assertThat(streamError.get()).isInstanceOf(RdmaConnectionException.class)
                .hasMessageContaining("broke down").hasMessageContaining("simulated fault in a loop task");
            Awaitility.await("the other connection of the loop ended").atMost(ShmTestSupport.BOUND)
                .until(() -> disposed.get() != null);
            assertThat(disposed.get()).hasMessageContaining("simulated fault in a loop task");
            assertThat(runtime.failure()).get().isInstanceOf(InternalError.class);

            assertThatThrownBy(() -> ShmTestSupport.client(directory, address).runOn(runtime).connect()
                .block(ShmTestSupport.BOUND))
                .hasMessageContaining("is broken").hasMessageContaining("simulated fault in a loop task");
        } finally {
            first.dispose();
            second.dispose();
            server.dispose();
            server.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            runtime.dispose();
        }
    }

    @Test
    void aBrokenSharedRuntimeIsReplacedForTheNextClient() {
        final String address = ShmTestSupport.uniqueAddress("breakdown-shared");
        // the server on a runtime of its own, the clients on the process's shared one
        final RdmaRuntime serverRuntime = RdmaRuntime.builder().provider("shm").directory(directory)
            .idleStrategy("backoff").build();
        final DisposableServer server = ShmTestSupport.server(directory, address).runOn(serverRuntime)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.BYTE_ARRAY).next(), Codecs.BYTE_ARRAY))
            .bind().block(ShmTestSupport.BOUND);
        final Connection broken = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        Connection next = null;
        try {
            final AtomicReference<Throwable> disposed = new AtomicReference<>();
            broken.onDispose().subscribe(null, disposed::set);
            ((DefaultConnection) broken).onLoop(() -> {
                throw new InternalError("simulated fault in the shared runtime");
            });
            Awaitility.await("the connection ended").atMost(ShmTestSupport.BOUND).until(() -> disposed.get() != null);

            next = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
            final byte[] answer = next.requestResponse(new byte[] {4, 2}, Codecs.BYTE_ARRAY, Codecs.BYTE_ARRAY)
                .block(ShmTestSupport.BOUND);
            assertThat(answer).containsExactly(4, 2);
        } finally {
            broken.dispose();
            if (next != null) {
                next.dispose();
                next.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
            server.dispose();
            server.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            serverRuntime.dispose();
        }
    }
}
