package io.rdmareactive.cli;

import io.rdmareactive.provider.verbs.RdmaInfo;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code rdma-reactive info}: what {@link RdmaInfo} prints, like {@code ibv_devinfo} plus the providers. */
@Command(name = "info", mixinStandardHelpOptions = true, sortOptions = false,
    versionProvider = RdmaReactiveCli.Version.class,
    header = "RDMA devices, ports, GIDs and limits; each provider's availability; what auto picks.",
    description = {"Lists the RDMA devices the verbs provider sees through libibverbs and librdmacm (firmware, node "
        + "GUID, limits, and each port's state, link layer, MTU, speed and GIDs, as ibv_devinfo does), then every "
        + "provider with its availability and the reason, and which provider 'auto' picks.", ""},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:a verbs device is usable", "1:none is (the shared-memory provider may still be)"})
final class InfoCommand implements Callable<Integer> {

    private final PrintStream out;

    InfoCommand(final PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        final int status = RdmaInfo.print(out);
        out.flush();
        return status;
    }
}
