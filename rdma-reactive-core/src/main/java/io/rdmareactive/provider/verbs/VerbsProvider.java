package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProvider;

/**
 * The verbs provider, {@code verbs}: RDMA adapters (InfiniBand, RoCE, Soft-RoCE) through libibverbs and librdmacm,
 * bound with the Java 25 foreign function and memory API; nothing native to compile.
 */
public final class VerbsProvider implements RdmaProvider {

    /** The provider's name in configuration. */
    public static final String NAME = "verbs";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Availability availability() {
        try {
            final VerbsDeviceProbe.Result found = VerbsDeviceProbe.probe();
            final VerbsDeviceProbe.Device device = found.choose(java.util.Optional.empty());
            return Availability.available("RDMA device " + device.name() + " has "
                + device.activePort().orElseThrow().describe());
        } catch (final VerbsUnavailableException ex) {
            return Availability.unavailable(ex.getMessage());
        } catch (final RuntimeException ex) {
            return Availability.unavailable("probing the RDMA devices failed: " + ex);
        }
    }

    @Override
    public RdmaDevice open(final DeviceOptions options) {
        return VerbsDevice.open(options);
    }

    @Override
    public String describeDevices() {
        try {
            final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            try (java.io.PrintStream out = new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8)) {
                RdmaInfo.printDevices(out);
            }
            return bytes.toString(java.nio.charset.StandardCharsets.UTF_8).stripTrailing();
        } catch (final RuntimeException | LinkageError ex) {
            return "  none: probing the RDMA devices failed: " + ex;
        }
    }
}
