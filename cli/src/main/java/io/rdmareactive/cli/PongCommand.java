package io.rdmareactive.cli;

import io.rdmareactive.samples.PingPong;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code rdma-reactive pong}: the samples' {@code PingPong}, pong side, for {@code rdma-reactive ping}. */
@Command(name = "pong", mixinStandardHelpOptions = true, sortOptions = false,
    versionProvider = RdmaReactiveCli.Version.class,
    header = "Echo every message of each ping that connects, until Ctrl-C.",
    description = {"Serves an address through the Reactor API (an RdmaServer) and echoes every message back on the "
        + "connection it came on; one ping after another may connect. Prints a line when it listens and one when "
        + "each ping leaves.", ""},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:served its one ping (--once)", "1:binding failed", "2:wrong options",
        "130:stopped with Ctrl-C (the server is closed first)"})
final class PongCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-a", "--address"}, paramLabel = "ADDRESS", required = true,
        description = "Where to listen: a name on shm (letters, digits, '.', '_', '-'), HOST:PORT of the RDMA "
            + "interface on verbs (port 0: any free port, printed)")
    String address;

    @Option(names = "--once", description = "Serve one ping, then exit")
    boolean once;

    @Mixin
    ConnectionOptions connection;

    private final PrintStream out;

    PongCommand(final PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        final List<String> args = new ArrayList<>(List.of("--role=pong"));
        connection.add(args, "address", address);
        connection.addTo(args);
        if (once) {
            args.add("--once");
        }
        try {
            return PingPong.run(args.toArray(String[]::new), out);
        } catch (final IllegalArgumentException ex) {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
        } finally {
            out.flush();
        }
    }
}
