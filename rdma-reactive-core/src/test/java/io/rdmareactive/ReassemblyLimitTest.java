package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A client that makes a server reassemble more fragmented messages at once than the server's direct memory allows:
 * the server, a JVM of its own with {@code -XX:MaxDirectMemorySize=24m} (12 MiB for reassembly), refuses the stream
 * that would pass its budget, saying so, ends that connection, and goes on serving others. Before the budget, the
 * reassembly buffers grew until the JVM ran out of direct memory, an Error in the driver.
 */
class ReassemblyLimitTest {

    private static final int MESSAGE = 8 << 20;

    @ShmTestDirectory
    private Path directory;
    private ChildJvm server;

    @AfterEach
    void cleanUp() {
        if (server != null) {
            server.kill();
        }
    }

    @Test
    void streamsThatWouldPassTheReassemblyBudgetAreRefusedWithAReasonAndTheServerServesOthers() {
        final String address = ShmTestSupport.uniqueAddress("reassembly");
        server = ChildJvmLauncher.of(ChildPeer.class)
            .jvmOptions("-Xmx256m", "-Drdma.idle=backoff", "-XX:MaxDirectMemorySize=24m")
            .args("reassembly-server", directory.toString(), address).bound(ShmTestSupport.BOUND).start();
        server.awaitLine(ChildPeer.LISTENING);

        final Connection greedy = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        final List<Mono<List<String>>> channels = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // four 8 MiB messages reassembled at once: 32 MiB, beyond 12
            channels.add(greedy.requestChannel(Flux.just(new byte[MESSAGE]), Codecs.BYTE_ARRAY, Codecs.UTF8_STRING)
                .collectList().onErrorReturn(List.of("failed")));
        }
        final List<List<String>> answers = Flux.merge(channels).collectList().block(ShmTestSupport.BOUND);
        assertThat(answers).as("at least one channel of the greedy connection failed").contains(List.of("failed"));
        server.awaitLine("INBOUND FAILED");
        assertThat(server.output()).contains("reassembling a message of")
            .contains("bytes of direct memory this process lets inbound streams hold")
            .doesNotContain("malformed")
            .doesNotContain("OutOfMemoryError");
        greedy.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);

        // the server is alive and serves a new connection, fragmented messages included
        final Connection honest = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        try {
            assertThat(honest.requestResponse("still here", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("STILL HERE");
            assertThat(honest.requestChannel(Flux.just(new byte[MESSAGE]), Codecs.BYTE_ARRAY, Codecs.UTF8_STRING)
                .collectList().onErrorResume(error -> Mono.just(List.of(error + "; the server said "
                    + server.output()))).block(ShmTestSupport.BOUND)).containsExactly("got " + MESSAGE);
        } finally {
            honest.dispose();
        }
        assertThat(server.isAlive()).isTrue();
    }
}
