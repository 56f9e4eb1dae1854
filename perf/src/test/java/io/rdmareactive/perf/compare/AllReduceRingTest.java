package io.rdmareactive.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.perf.compare.transport.VerbsNodes;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Where the all-reduce's ranks listen over verbs and which device each rank's two sides use: over the guest's two
 * nodes, every hop of the ring crosses the link, the odd ring's last hop (node A to node A) as well.
 */
class AllReduceRingTest {

    private static final VerbsNodes GUEST = new VerbsNodes("10.77.0.1:7490", "rxe-a", "rxe-b", "10.77.0.2");

    @Test
    void evenRanksListenOnNodeAAndOddRanksOnNodeBEachOnAPortOfItsOwn() {
        final String[] ring = AllReduceWorkload.ring(GUEST, 4);

        assertThat(ring).extracting(address -> address.substring(0, address.indexOf(':')))
            .containsExactly("10.77.0.1", "10.77.0.2", "10.77.0.1", "10.77.0.2");
        assertThat(Arrays.stream(ring).map(address -> address.substring(address.indexOf(':') + 1)).distinct())
            .hasSize(4);
        assertThat(ring).extracting(GUEST::listeningDevice).containsExactly("rxe-a", "rxe-b", "rxe-a", "rxe-b");
        // rank r connects to rank r + 1: from the device the route to it leaves through, its own node's
        assertThat(rightNeighbours(ring)).extracting(GUEST::connectingDevice)
            .containsExactly("rxe-a", "rxe-b", "rxe-a", "rxe-b");
    }

    @Test
    void anOddRingsLastHopConnectsFromNodeBsDevice() {
        final String[] ring = AllReduceWorkload.ring(GUEST, 3);

        assertThat(ring).extracting(GUEST::listeningDevice).containsExactly("rxe-a", "rxe-b", "rxe-a");
        assertThat(rightNeighbours(ring)).extracting(GUEST::connectingDevice)
            .as("rank 2 (node A) to rank 0 (node A): the route to node A leaves node B")
            .containsExactly("rxe-a", "rxe-b", "rxe-b");
    }

    @Test
    void withoutNodeBsAddressEveryRankListensOnNodeAAndConnectsFromNodeB() {
        final VerbsNodes nodes = new VerbsNodes("10.77.0.1:7490", "rxe-a", "rxe-b", null);
        final String[] ring = AllReduceWorkload.ring(nodes, 3);

        assertThat(ring).allMatch(address -> address.startsWith("10.77.0.1:"));
        assertThat(ring).extracting(nodes::listeningDevice).containsOnly("rxe-a");
        assertThat(rightNeighbours(ring)).extracting(nodes::connectingDevice).containsOnly("rxe-b");
    }

    @Test
    void oneDeviceListensAtTheVerbsAddressesNextPorts() {
        final String[] ring = AllReduceWorkload.ring(VerbsNodes.oneDevice("10.0.2.15:7490"), 4);

        assertThat(ring).allMatch(address -> address.startsWith("10.0.2.15:"));
        assertThat(Arrays.stream(ring).distinct()).hasSize(4);
        assertThat(ring).extracting(VerbsNodes.oneDevice("10.0.2.15:7490")::listeningDevice).containsOnlyNulls();
    }

    @Test
    void rrVerbsFluxHasARingLink() {
        assertThat(AllReduceWorkload.TRANSPORTS).contains("rr-shm-flux", "rr-verbs-flux")
            .doesNotContain("rr-verbs-raw", "rr-shm-raw");
    }

    private static String[] rightNeighbours(final String[] ring) {
        final String[] right = new String[ring.length];
        for (int rank = 0; rank < ring.length; rank++) {
            right[rank] = ring[(rank + 1) % ring.length];
        }
        return right;
    }
}
