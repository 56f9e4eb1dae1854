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

/** {@code rdma-reactive ping}: the samples' {@code PingPong}, ping side, against a pong. */
@Command(name = "ping", mixinStandardHelpOptions = true, sortOptions = false,
    versionProvider = RdmaReactiveCli.Version.class,
    header = "Round trips against a pong, with latency percentiles.",
    description = {"Connects to a pong (started with 'rdma-reactive pong' in another terminal or on another host) "
        + "through the Reactor API and sends one message at a time, each as soon as the echo of the one before has "
        + "come back; checks every echoed byte and prints the round-trip percentiles (p50, p90, p99, p99.9, max; "
        + "the first 10%% discarded as warm-up) and the round trips per second. Without --address it starts a pong of "
        + "its own in a second JVM on shared memory.", ""},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:every round trip came back with the right bytes", "1:one did not, or the connection failed",
        "2:wrong options"})
final class PingCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-a", "--address"}, paramLabel = "ADDRESS",
        description = "The pong's address: the name it was given on shm, HOST:PORT on verbs (default: start a pong "
            + "in a second JVM, shm only)")
    String address;

    @Option(names = {"-n", "--round-trips"}, paramLabel = "N", defaultValue = "50000",
        description = "Round trips, at least 10 (default: ${DEFAULT-VALUE})")
    int roundTrips;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", defaultValue = "32",
        description = "Message size, 1 to 1048576 (default: ${DEFAULT-VALUE})")
    int size;

    @Mixin
    ConnectionOptions connection;

    private final PrintStream out;

    PingCommand(final PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        if (address == null && !"shm".equals(connection.provider)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--provider=" + connection.provider
                + " needs --address of a running pong (HOST:PORT on verbs); only on shm does ping start its own");
        }
        final List<String> args = new ArrayList<>(List.of("--role=ping", "--round-trips=" + roundTrips,
            "--size=" + size));
        connection.add(args, "address", address);
        connection.addTo(args);
        try {
            return PingPong.run(args.toArray(String[]::new), out);
        } catch (final IllegalArgumentException ex) {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
        } finally {
            out.flush();
        }
    }
}
