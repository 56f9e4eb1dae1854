package io.rdmareactive.provider.verbs;

import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.RdmaProvider;
import io.rdmareactive.spi.RdmaProviders;
import java.io.PrintStream;
import java.util.Locale;

/**
 * What {@code rdma-reactive info} (the command-line tool, {@code bin/rdma-reactive}) prints: the RDMA devices of this
 * machine as the verbs provider sees them (like {@code ibv_devinfo}), each provider's availability, and which one
 * {@code auto} picks and why. The tool's entry point lives in the {@code cli} module; this class holds what it prints
 * so that the provider can describe its devices in its own messages.
 */
public final class RdmaInfo {

    private RdmaInfo() {
    }

    /**
     * Prints what {@code rdma-reactive info} prints, for that tool and for tools that record the machine next to their
     * figures.
     *
     * @param out where to print
     * @return 0 when a verbs device is usable, 1 otherwise
     */
    public static int print(final PrintStream out) {
        out.println("rdma-reactive info: RDMA devices seen through libibverbs/librdmacm (Java FFM)");
        printDevices(out);
        out.println("providers:");
        boolean verbsUsable = false;
        for (final RdmaProvider provider : RdmaProviders.all()) {
            final Availability availability = provider.availability();
            out.printf(Locale.ROOT, "  %-6s %s: %s%n", provider.name(),
                availability.available() ? "available" : "unavailable", availability.reason());
            if (provider.name().equals(VerbsProvider.NAME)) {
                verbsUsable = availability.available();
            }
        }
        try {
            final RdmaProvider chosen = RdmaProviders.auto();
            out.println("auto picks: " + chosen.name() + " (" + chosen.availability().reason() + ")");
        } catch (final RuntimeException ex) {
            out.println("auto picks nothing: " + ex.getMessage());
        }
        return verbsUsable ? 0 : 1;
    }

    /** Prints each verbs device: its firmware and limits, and each port's state, link layer, MTU, speed and GIDs. */
    static void printDevices(final PrintStream out) {
        final VerbsDeviceProbe.Result found = VerbsDeviceProbe.probe();
        if (found.problem() != null) {
            out.println("  none: " + found.problem());
        }
        for (final VerbsDeviceProbe.Device device : found.devices()) {
            out.printf(Locale.ROOT, "  %s%n", device.name());
            out.printf(Locale.ROOT, "    firmware %s, node GUID %016x, vendor 0x%x part %d%n",
                device.firmware().isEmpty() ? "(none)" : device.firmware(), device.nodeGuid(), device.vendorId(),
                device.vendorPartId());
            out.printf(Locale.ROOT, "    max QPs %d, max QP depth %d, max SGE %d, max CQs %d, max CQE %d, "
                    + "max MR size %d, RDMA READ depth %d/%d%n", device.maxQueuePairs(), device.maxQueuePairDepth(),
                device.maxSge(), device.maxCompletionQueues(), device.maxCqe(), device.maxMrSize(),
                device.maxReadAtoms(), device.maxInitiatorReadAtoms());
            for (final VerbsDeviceProbe.Port port : device.ports()) {
                out.printf(Locale.ROOT, "    port %d: %s, %s, active MTU %d (max %d), %s, LID %d, max message %d%n",
                    port.number(), port.stateName(), port.linkLayerName(),
                    VerbsDeviceProbe.Port.mtuBytes(port.activeMtu()), VerbsDeviceProbe.Port.mtuBytes(port.maxMtu()),
                    port.speedName(), port.lid(), port.maxMessageSize());
                for (final String gid : port.gids()) {
                    out.println("      GID " + gid);
                }
            }
        }
    }
}
