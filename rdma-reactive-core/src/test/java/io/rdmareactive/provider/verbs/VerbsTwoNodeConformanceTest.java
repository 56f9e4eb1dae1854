package io.rdmareactive.provider.verbs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.conformance.ProviderConformanceTest;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The provider conformance suite across a network link: every listening side opens node A's device, every
 * connecting side (a peer JVM included) node B's, and every address is node A's, so each connection leaves through
 * one RDMA device and its network interface, crosses the link and arrives at the other. The Soft-RoCE guest sets it
 * up (two rxe devices on the two ends of a veth pair; see docs/softroce.md, "Two nodes") and runs this class alone,
 * with the tag {@code verbs-two-node}; elsewhere it is skipped with the reason.
 */
@Tag("verbs-two-node")
class VerbsTwoNodeConformanceTest extends ProviderConformanceTest {

    /** Node A's interface address: where the listeners bind and the connections go. */
    static final String HOST_VARIABLE = "RR_TWO_NODE_HOST";
    /** Node A's device: the listening sides'. */
    static final String SERVER_DEVICE_VARIABLE = "RR_TWO_NODE_SERVER_DEVICE";
    /** Node B's device: the connecting sides'. */
    static final String CLIENT_DEVICE_VARIABLE = "RR_TWO_NODE_CLIENT_DEVICE";

    private static final AtomicInteger PORTS = new AtomicInteger(30_000 + (int) (ProcessHandle.current().pid() % 300)
        * 100);

    @BeforeAll
    static void requireTwoNodes() {
        for (final String variable : new String[] {HOST_VARIABLE, SERVER_DEVICE_VARIABLE, CLIENT_DEVICE_VARIABLE}) {
            final String value = System.getenv(variable);
            assumeTrue(value != null && !value.isBlank(), "no two-node set-up: " + variable + " is not set "
                + "(softroce/run sets it inside its guest)");
        }
        final String reason = VerbsTestEnvironment.unavailableReason();
        assumeTrue(reason == null, reason);
    }

    @Override
    protected String providerName() {
        return VerbsProvider.NAME;
    }

    @Override
    protected DeviceOptions deviceOptions() {
        return DeviceOptions.builder().deviceName(System.getenv(SERVER_DEVICE_VARIABLE)).build();
    }

    @Override
    protected DeviceOptions deviceOptions(final String role) {
        return role.startsWith("server") ? deviceOptions()
            : DeviceOptions.builder().deviceName(System.getenv(CLIENT_DEVICE_VARIABLE)).build();
    }

    @Override
    protected String address(final String uniqueName) {
        return System.getenv(HOST_VARIABLE) + ":" + PORTS.getAndIncrement();
    }

    @Override
    protected Set<ConnectionEvent.Type> eventsOfAResponderAtFault() {
        return Set.of(ConnectionEvent.Type.QUEUE_PAIR_ERROR, ConnectionEvent.Type.DISCONNECTED);
    }

    @Override
    protected Set<ConnectionEvent.Type> eventsOfAKilledPeer() {
        return Set.of(ConnectionEvent.Type.PEER_LOST, ConnectionEvent.Type.DISCONNECTED);
    }
}
