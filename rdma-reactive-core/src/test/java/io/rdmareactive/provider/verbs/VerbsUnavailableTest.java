package io.rdmareactive.provider.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaProviders;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a user sees on a machine where verbs cannot run: each condition is one sentence that says what to do. The
 * conditions are real where they hold (this project's CI machines have the libraries installed but no RDMA support in
 * the kernel); the others are shown through the probe's own result.
 */
class VerbsUnavailableTest {

    @Test
    void aMissingLibraryNamesThePackagesToInstall() {
        final Object result = VerbsLibrary.load("libibverbs.so.99", "librdmacm.so.1");
        assertThat(result).isInstanceOf(String.class);
        assertThat((String) result).contains("libibverbs.so.99").contains("libibverbs1").contains("librdmacm1")
            .contains("rdma-core");
        final Object cm = VerbsLibrary.load("libibverbs.so.1", "librdmacm.so.99");
        if (cm instanceof String message) { // where libibverbs.so.1 itself is missing, it is named instead
            assertThat(message).containsAnyOf("librdmacm.so.99", "libibverbs.so.1").contains("apt install");
        }
    }

    @Test
    void aKernelWithoutRdmaSupportIsNamedAsSuchAndAutoFallsBackToSharedMemory() {
        assumeTrue(!Files.exists(Path.of("/sys/class/infiniband_verbs")), "this machine's kernel supports RDMA");
        assumeTrue(VerbsLibrary.load("libibverbs.so.1", "librdmacm.so.1") instanceof VerbsLibrary,
            "the verbs libraries are not installed here (apt install libibverbs1 librdmacm1)");

        final Availability availability = new VerbsProvider().availability();
        assertThat(availability.available()).isFalse();
        assertThat(availability.reason()).contains("no RDMA support").contains("ENOSYS").contains("ib_uverbs");

        assertThatThrownBy(() -> new VerbsProvider().open(DeviceOptions.defaults()))
            .isInstanceOf(VerbsUnavailableException.class)
            .hasMessage(availability.reason());
        assertThat(RdmaProviders.auto().name()).as("what auto picks where verbs cannot run").isEqualTo("shm");
    }

    @Test
    void noDeviceADeviceWithItsPortDownAndAnUnknownDeviceNameEachSayWhatToDo() {
        final VerbsDeviceProbe.Result none = new VerbsDeviceProbe.Result(List.of(), "there is no RDMA device");
        assertThatThrownBy(() -> none.choose(Optional.empty())).isInstanceOf(VerbsUnavailableException.class)
            .hasMessage("there is no RDMA device");

        final VerbsDeviceProbe.Port down = new VerbsDeviceProbe.Port(1, 1, 3, 5, 2, 0, 16, 1L << 31, 2, 32,
            List.of());
        final VerbsDeviceProbe.Device device = new VerbsDeviceProbe.Device("mlx5_0", MemorySegment.NULL, "16.35",
            0, 0x02c9, 4123, 1, 1, 1, 1, 1, 1, 1, 1, 1, List.of(down));
        final VerbsDeviceProbe.Result portDown = new VerbsDeviceProbe.Result(List.of(device), null);
        assertThatThrownBy(() -> portDown.choose(Optional.empty())).isInstanceOf(VerbsUnavailableException.class)
            .hasMessageContaining("mlx5_0 has no active port (port 1 DOWN (Ethernet (RoCE), MTU 1024))")
            .hasMessageContaining("ibv_devinfo");
        assertThatThrownBy(() -> portDown.choose(Optional.of("mlx5_9"))).isInstanceOf(VerbsUnavailableException.class)
            .hasMessageContaining("no RDMA device named 'mlx5_9'").hasMessageContaining("mlx5_0");
    }

    @Test
    void addressesAreHostAndPortAndMistakesAreExplained() {
        assertThat(VerbsAddress.parse("127.0.0.1:7471").port()).isEqualTo(7471);
        assertThatThrownBy(() -> VerbsAddress.parse("7471")).hasMessageContaining("host:port");
        assertThatThrownBy(() -> VerbsAddress.parse("127.0.0.1:http")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> VerbsAddress.parse("127.0.0.1:70000")).hasMessageContaining("0 to 65535");
        assertThatThrownBy(() -> VerbsAddress.parse("[::1]:7471")).hasMessageContaining("IPv4");
    }

    @Test
    void privateDataIsFramedSoItCrossesExactlyAndTheLimitsAreEnforced() {
        final byte[] data = {1, 2, 3};
        final byte[] padded = new byte[PrivateData.CM_CONNECT_LIMIT];
        final byte[] framed = PrivateData.frame(data, PrivateData.CONNECT_LIMIT, "a connect request");
        System.arraycopy(framed, 0, padded, 0, framed.length);
        assertThat(PrivateData.unframe(padded)).isEqualTo(data);
        assertThat(PrivateData.unframe(PrivateData.frame(new byte[0], 10, "x"))).isEmpty();
        assertThatThrownBy(() -> PrivateData.frame(new byte[PrivateData.CONNECT_LIMIT + 1], PrivateData.CONNECT_LIMIT,
            "a connect request")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 55");
    }

    @Test
    void workRequestIdsCarryDirectionSlotAndSequenceAcrossWrapAround() {
        final long completed = 0xFFFF_FFF0L;
        final long send = WorkRequestIds.send(4095, completed + 0x20);
        assertThat(WorkRequestIds.isReceive(send)).isFalse();
        assertThat(WorkRequestIds.slot(send)).isEqualTo(4095);
        assertThat(WorkRequestIds.sequence(send, completed)).isEqualTo(completed + 0x20);
        final long receive = WorkRequestIds.receive(7, 3);
        assertThat(WorkRequestIds.isReceive(receive)).isTrue();
        assertThat(WorkRequestIds.slot(receive)).isEqualTo(7);
        assertThat(WorkRequestIds.sequence(receive, 3)).isEqualTo(3);
    }
}
