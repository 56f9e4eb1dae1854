package io.rdmareactive.perf.compare.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Which device listens at and which connects to an address: the Soft-RoCE guest's two nodes, or one device. */
class VerbsNodesTest {

    private static final VerbsNodes GUEST = new VerbsNodes("10.77.0.1:7490", "rxe-a", "rxe-b", "10.77.0.2");

    @Test
    void aListenerIsOnTheDeviceOwningItsIpAndAConnectionLeavesFromTheOtherNode() {
        assertThat(GUEST.twoDevices()).isTrue();
        assertThat(GUEST.listeningDevice("10.77.0.1:7491")).isEqualTo("rxe-a");
        assertThat(GUEST.listeningDevice("10.77.0.2:7492")).isEqualTo("rxe-b");
        assertThat(GUEST.connectingDevice("10.77.0.1:7491")).as("the route to node A leaves node B").isEqualTo("rxe-b");
        assertThat(GUEST.connectingDevice("10.77.0.2:7492")).as("the route to node B leaves node A").isEqualTo("rxe-a");
    }

    @Test
    void nodeBsAddressesTakePortsFromTheSameCountAsNodeAs() {
        final String a = GUEST.nextServerAddress();
        final String b = GUEST.nextClientNodeAddress();
        assertThat(a).startsWith("10.77.0.1:");
        assertThat(b).startsWith("10.77.0.2:");
        assertThat(Integer.parseInt(b.substring(10))).isEqualTo(Integer.parseInt(a.substring(10)) + 1);
    }

    @Test
    void withoutNodeBsAddressEveryListenerIsOnNodeAAndEveryClientOnNodeB() {
        final VerbsNodes nodes = new VerbsNodes("10.77.0.1:7490", "rxe-a", "rxe-b", null);
        final String address = nodes.nextClientNodeAddress();
        assertThat(address).startsWith("10.77.0.1:");
        assertThat(nodes.listeningDevice(address)).isEqualTo("rxe-a");
        assertThat(nodes.connectingDevice(address)).isEqualTo("rxe-b");
        assertThat(nodes.describe()).contains("servers on rxe-a at 10.77.0.1").contains("connecting sides on rxe-b")
            .contains("every listener on node A");
    }

    @Test
    void oneDeviceNamesNone() {
        final VerbsNodes nodes = VerbsNodes.oneDevice("10.0.2.15:7490");
        assertThat(nodes.twoDevices()).isFalse();
        assertThat(nodes.nextClientNodeAddress()).startsWith("10.0.2.15:");
        assertThat(nodes.listeningDevice("10.0.2.15:7490")).isNull();
        assertThat(nodes.connectingDevice("10.0.2.15:7490")).isNull();
        assertThat(nodes.describe()).startsWith("one device");
    }

    @Test
    void theDevicesComeTogetherAndNodeBsAddressOnlyWithThem() {
        assertThatThrownBy(() -> new VerbsNodes("10.77.0.1:7490", "rxe-a", null, null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("together");
        assertThatThrownBy(() -> new VerbsNodes("10.77.0.1:7490", null, null, "10.77.0.2"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two devices");
    }
}
