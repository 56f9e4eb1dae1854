package io.rdmareactive.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options {@code ping} and {@code pong} share, handed to the samples' {@code PingPong} as its own options. */
final class ConnectionOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = {"-p", "--provider"}, paramLabel = "NAME", defaultValue = "shm",
        description = "shm, verbs or auto (default: ${DEFAULT-VALUE})")
    String provider;

    @Option(names = "--idle", paramLabel = "STRATEGY",
        description = "Idle strategy of the event loop: busy-spin, yielding, backoff or sleeping (default: "
            + "yielding on 2 cores or fewer, busy-spin otherwise, unless -Drdma.idle names one)")
    String idle;

    @Option(names = {"-d", "--directory"}, paramLabel = "DIR",
        description = "The shared-memory directory of both sides (shm; default: /dev/shm/rdma-reactive-$USER)")
    Path directory;

    @Option(names = "--liveness-seconds", paramLabel = "N",
        description = "Liveness timeout of the connection (default: the library's, 5 s)")
    Integer livenessSeconds;

    @Option(names = "--startup-seconds", paramLabel = "N",
        description = "How long binding, connecting and starting a pong may take (default: 30)")
    Integer startupSeconds;

    /** Adds these options, as {@code --name=value}, to {@code args}. */
    void addTo(final List<String> args) {
        add(args, "provider", provider);
        add(args, "idle", idle);
        add(args, "directory", directory == null ? null : directory.toString());
        add(args, "liveness-seconds", livenessSeconds == null ? null : livenessSeconds.toString());
        add(args, "startup-seconds", startupSeconds == null ? null : startupSeconds.toString());
    }

    /** PingPong splits its arguments at white space (they may come from one -Dsample.args), so a value has none. */
    void add(final List<String> args, final String name, final String value) {
        if (value == null) {
            return;
        }
        if (value.isEmpty() || value.chars().anyMatch(Character::isWhitespace)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--" + name + " must be a value without "
                + "white space, not '" + value + "'");
        }
        args.add("--" + name + "=" + value);
    }
}
