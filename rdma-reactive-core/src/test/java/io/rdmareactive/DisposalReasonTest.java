package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * The errors of streams cut short by their own connection's {@code dispose()} say why they ended, as the errors of
 * a connection used after its disposal do ({@link DisposalTest}): not "ended: null". (Found by
 * {@link LifecycleRaceTest}, whose sends and request streams, ended by a dispose, failed with
 * "the connection to ... ended: null".)
 */
class DisposalReasonTest {

    @ShmTestDirectory
    private Path directory;
    private DisposableServer server;

    @BeforeEach
    void start() {
        server = ShmTestSupport.server(directory, ShmTestSupport.uniqueAddress("reason"))
            .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
    }

    @AfterEach
    void stop() {
        server.dispose();
        server.onDispose().block(ShmTestSupport.BOUND);
    }

    @Test
    void streamsCutShortByTheirConnectionsDisposalSayWhyTheyEnded() throws Exception {
        final Connection connection = ShmTestSupport.client(directory, server.address()).connect()
            .block(ShmTestSupport.BOUND);
        final CountDownLatch echoed = new CountDownLatch(100);
        final CompletableFuture<Throwable> inboundEnded = new CompletableFuture<>();
        connection.inbound().receive(Codecs.UTF8_STRING)
            .subscribe(value -> echoed.countDown(), inboundEnded::complete, () -> inboundEnded.complete(null));
        final CompletableFuture<Throwable> sendEnded = new CompletableFuture<>();
        connection.outbound().send(Flux.range(0, Integer.MAX_VALUE).map(String::valueOf), Codecs.UTF8_STRING)
            .subscribe(null, sendEnded::complete, () -> sendEnded.complete(null));
        assertThat(echoed.await(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS)).as("100 echoes").isTrue();

        connection.dispose();

        final Throwable sendError = sendEnded.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS);
        final Throwable inboundError = inboundEnded.get(ShmTestSupport.BOUND.toSeconds(), TimeUnit.SECONDS);
        connection.onDispose().block(ShmTestSupport.BOUND);
        assertThat(sendError).as("how the running send ended").isInstanceOf(RdmaConnectionException.class)
            .hasMessageNotContaining("ended: null");
        assertThat(inboundError).as("how the inbound Flux ended").isInstanceOf(RdmaConnectionException.class)
            .hasMessageNotContaining("ended: null");
    }
}
