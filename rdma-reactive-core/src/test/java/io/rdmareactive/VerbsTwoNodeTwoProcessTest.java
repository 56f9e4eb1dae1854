package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.provider.verbs.VerbsTestEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * {@link TwoProcessTest} across a network link (the Soft-RoCE guest's two nodes; see docs/softroce.md, "Two nodes"):
 * this JVM is node B (its device {@code RR_TWO_NODE_CLIENT_DEVICE}, its address {@code RR_TWO_NODE_CLIENT_HOST}),
 * the child JVM node A ({@code RR_TWO_NODE_SERVER_DEVICE}, {@code RR_TWO_NODE_HOST}). The peer killed mid-stream,
 * the peer stopped past its liveness timeout and the checksummed messages from another JVM all cross the link, in
 * both directions; one more case runs both nodes in this JVM, a runtime on each device. The guest runs this class
 * alone, with the tag {@code verbs-two-node}; elsewhere it is skipped with the reason.
 */
@Tag("verbs-two-node")
class VerbsTwoNodeTwoProcessTest extends TwoProcessTest {

    private static final String NODE_A_HOST = "RR_TWO_NODE_HOST";
    private static final String NODE_A_DEVICE = "RR_TWO_NODE_SERVER_DEVICE";
    private static final String NODE_B_HOST = "RR_TWO_NODE_CLIENT_HOST";
    private static final String NODE_B_DEVICE = "RR_TWO_NODE_CLIENT_DEVICE";
    private static final String DEVICE_PROPERTY = "rdma.verbs.device";
    private static final AtomicInteger PORTS = new AtomicInteger(40_000 + (int) (ProcessHandle.current().pid() % 200)
        * 100);

    /** Verbs, counts scaled as {@link VerbsTwoProcessTest}'s; not {@link OnVerbs}, whose tag the guest runs apart */
    VerbsTwoNodeTwoProcessTest() {
        super(TestTransport.verbs(0.01));
    }

    @BeforeAll
    static void becomeNodeB() {
        for (final String variable : List.of(NODE_A_HOST, NODE_A_DEVICE, NODE_B_HOST, NODE_B_DEVICE)) {
            final String value = System.getenv(variable);
            assumeTrue(value != null && !value.isBlank(), "no two-node set-up: " + variable + " is not set "
                + "(softroce/run sets it inside its guest)");
        }
        final String reason = VerbsTestEnvironment.unavailableReason();
        assumeTrue(reason == null, reason);
        System.setProperty(DEVICE_PROPERTY, System.getenv(NODE_B_DEVICE));
    }

    @AfterAll
    static void forgetNodeB() {
        System.clearProperty(DEVICE_PROPERTY);
    }

    @Override
    protected String addressServedByTheChild(final String prefix) {
        return System.getenv(NODE_A_HOST) + ":" + PORTS.getAndIncrement();
    }

    @Override
    protected String addressServedHere(final String prefix) {
        return System.getenv(NODE_B_HOST) + ":" + PORTS.getAndIncrement();
    }

    @Override
    protected List<String> childJvmOptions() {
        return List.of("-D" + DEVICE_PROPERTY + "=" + System.getenv(NODE_A_DEVICE));
    }

    @Test
    void aRuntimeOnADeviceThatDoesNotExistIsRefusedWithTheDevicesThereAre() {
        assertThatThrownBy(() -> RdmaRuntime.builder().provider("verbs").device("no-such-rdma-device").build())
            .as("a runtime on a device this machine lacks")
            .hasMessageContaining("no RDMA device named 'no-such-rdma-device'")
            .hasMessageContaining(System.getenv(NODE_A_DEVICE)).hasMessageContaining(System.getenv(NODE_B_DEVICE));
    }

    /** Two runtimes in one process, one per device ({@code RdmaRuntime.Builder.device}): node A serves, B calls. */
    @Test
    void oneProcessWithARuntimeOnEachNodesDeviceTalksAcrossTheLink() {
        final Duration bound = ShmTestSupport.BOUND;
        final RdmaRuntime nodeA = RdmaRuntime.builder().provider("verbs").device(System.getenv(NODE_A_DEVICE))
            .idleStrategy("backoff").build();
        final RdmaRuntime nodeB = RdmaRuntime.builder().provider("verbs").device(System.getenv(NODE_B_DEVICE))
            .idleStrategy("backoff").build();
        final String address = addressServedByTheChild("runtimes");
        try {
            final DisposableServer server = RdmaServer.create().runOn(nodeA).address(address)
                .handle((in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(text -> "echo " + text),
                    Codecs.UTF8_STRING))
                .bind().block(bound);
            try {
                final Connection connection = RdmaClient.create().runOn(nodeB).address(address).connect()
                    .block(bound);
                final List<String> echoes = connection.inbound().receive(Codecs.UTF8_STRING).take(200)
                    .collectList().doOnSubscribe(subscription -> connection.outbound()
                        .send(Flux.range(0, 200).map(String::valueOf), Codecs.UTF8_STRING).subscribe())
                    .block(bound);
                assertThat(echoes).as("every echo, once, in order").hasSize(200)
                    .containsExactlyElementsOf(Flux.range(0, 200).map(i -> "echo " + i).collectList().block());
                connection.dispose();
            } finally {
                server.dispose();
            }
        } finally {
            nodeB.dispose();
            nodeA.dispose();
        }
    }
}
