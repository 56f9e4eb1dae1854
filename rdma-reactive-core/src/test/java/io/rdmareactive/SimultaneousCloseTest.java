package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectories;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Both sides close at the same moment, from two threads, while each still reads the other's stream in place (views
 * into its receive ring) and writes its own: the rings must not be freed under a reader (that would crash the JVM, not
 * fail a test), and both ends must learn that the connection ended. {@code -Drr.test.closeRounds=N} runs more rounds.
 */
class SimultaneousCloseTest {

    @Test
    void bothSidesClosingAtOnceWhileReadingInPlaceEndCleanly() throws Exception {
        final int rounds = Integer.getInteger("rr.test.closeRounds", 20);
        for (int round = 0; round < rounds; round++) {
            final Path directory = ShmTestDirectories.create();
            final String address = ShmTestSupport.uniqueAddress("close-race");
            final DisposableServer server = ShmTestSupport.server(directory, address)
                .handle((in, out) -> Mono.when(in.receiveViews().then(),
                    out.send(Flux.range(0, Integer.MAX_VALUE).map(i -> new byte[1000]), Codecs.BYTE_ARRAY)))
                .bind().block(ShmTestSupport.BOUND);
            final Connection client = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
            final CountDownLatch reading = new CountDownLatch(1000);
            client.inbound().receiveViews().doOnNext(view -> {
                long sum = 0;
                for (int i = 0; i < view.capacity(); i++) {
                    sum += view.getByte(i);
                }
                assertThat(sum).isZero(); // every byte the server sent is zero
                reading.countDown();
            }).subscribe(v -> { }, e -> { });
            client.outbound().send(Flux.range(0, Integer.MAX_VALUE).map(i -> new byte[1000]), Codecs.BYTE_ARRAY)
                .subscribe(v -> { }, e -> { });
            assertThat(reading.await(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS)).as("1000 messages read")
                .isTrue();
            final CountDownLatch go = new CountDownLatch(1);
            final Thread a = Thread.ofPlatform().start(() -> { await(go); client.dispose(); });
            final Thread b = Thread.ofPlatform().start(() -> { await(go); server.dispose(); });
            go.countDown();
            a.join();
            b.join();
            client.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            server.onDispose().block(ShmTestSupport.BOUND);
            assertThat(client.isDisposed()).isTrue();
            assertThat(server.isDisposed()).isTrue();
            ShmTestDirectories.delete(directory);
        }
    }

    private static void await(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
