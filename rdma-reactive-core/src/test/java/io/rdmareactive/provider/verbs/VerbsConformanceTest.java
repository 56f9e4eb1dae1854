package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.DeviceOptions;
// tag::verbs-test[]
import io.rdmareactive.spi.conformance.ProviderConformanceTest;
// end::verbs-test[]
import java.util.Set;
// tag::verbs-test[]
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
// end::verbs-test[]

/**
 * The provider conformance suite against real verbs: runs where an RDMA device is up (the Soft-RoCE guest of
 * {@code softroce/run}), skipped elsewhere. Addresses are {@code host:port} on the device's interface.
 */
// tag::verbs-test[]
@Tag("verbs")
class VerbsConformanceTest extends ProviderConformanceTest {

    @BeforeAll
    static void requireDevice() {
        VerbsTestEnvironment.assumeVerbs();
    }
// end::verbs-test[]

    @Override
    protected String providerName() {
        return VerbsProvider.NAME;
    }

    @Override
    protected DeviceOptions deviceOptions() {
        return DeviceOptions.defaults();
    }

    @Override
    protected String address(final String uniqueName) {
        return VerbsTestEnvironment.uniqueAddress();
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
