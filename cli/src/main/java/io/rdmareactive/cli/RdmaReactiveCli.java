package io.rdmareactive.cli;

import io.rdmareactive.perf.compare.CompareCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code rdma-reactive}: the command-line tool. {@code bin/rdma-reactive} runs it from the shaded jar
 * ({@code cli/target/rdma-reactive-cli.jar}) with the JVM options every rdma-reactive JVM needs.
 *
 * <ul>
 *   <li>{@code info}: RDMA devices, ports, GIDs and limits, each provider's availability, what {@code auto} picks
 *       (like {@code ibv_devinfo});</li>
 *   <li>{@code stat}: every runtime's counters on this host, refreshed (like AeronStat);</li>
 *   <li>{@code ping} and {@code pong}: round trips between two processes on any provider, with percentiles (like
 *       {@code rping});</li>
 *   <li>{@code perf}: the transport comparison of the perf module.</li>
 * </ul>
 */
@Command(name = "rdma-reactive", mixinStandardHelpOptions = true, versionProvider = RdmaReactiveCli.Version.class,
    description = "Reactive messaging over RDMA: look at this machine's RDMA devices and the rdma-reactive "
        + "runtimes running on it, measure round trips, compare transports.",
    footer = {"", "'rdma-reactive help COMMAND' or 'rdma-reactive COMMAND --help' shows a command's options."})
public final class RdmaReactiveCli implements Runnable {

    @Spec
    CommandSpec spec;

    /**
     * Runs the tool and exits with the command's status.
     *
     * @param args a command and its options
     */
    public static void main(final String[] args) {
        // perf draws its report's plots without a display
        System.setProperty("java.awt.headless", "true");
        final int status = commandLine(System.out, System.err).execute(args);
        System.out.flush();
        System.exit(status);
    }

    /**
     * @param out where commands print what they report, and help goes
     * @param err where errors go
     * @return the whole command line, every subcommand added, ready to {@link CommandLine#execute}
     */
    static CommandLine commandLine(final PrintStream out, final PrintStream err) {
        final CommandLine cli = new CommandLine(new RdmaReactiveCli());
        cli.addSubcommand(new InfoCommand(out));
        cli.addSubcommand(new StatCommand(out));
        cli.addSubcommand(new PingCommand(out));
        cli.addSubcommand(new PongCommand(out));
        final CommandLine perf = new CommandLine(new CompareCommand(out));
        perf.getCommandSpec().name("perf");
        perf.getCommandSpec().usageMessage().header("Compare transports in one run: rdma-reactive, Aeron, Netty, "
            + "RSocket.");
        perf.getCommandSpec().versionProvider(new Version());
        cli.addSubcommand("perf", perf);
        cli.addSubcommand(new CommandLine.HelpCommand());
        cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cli.setParameterExceptionHandler((ex, args) -> usageError(cli, ex));
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("rdma-reactive " + commandLine.getCommandName() + ": " + describe(ex));
            commandLine.getErr().flush();
            return 1;
        });
        return cli;
    }

    /**
     * A usage error: the message and picocli's suggestions, then the top level's usage, or for a command the line
     * that names its help (perf's usage alone is a hundred lines, which would hide the message).
     *
     * @return the status of a usage error, 2
     */
    private static int usageError(final CommandLine cli, final CommandLine.ParameterException ex) {
        final PrintWriter err = cli.getErr();
        err.println(ex.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        final Object command = ex.getCommandLine().getCommand();
        // perf's own checks throw with a CommandLine of their own: name the command as this tool knows it
        final String name = cli.getSubcommands().values().stream()
            .filter(subcommand -> subcommand.getCommand() == command).findFirst()
            .map(subcommand -> cli.getCommandName() + " " + subcommand.getCommandName()).orElse(null);
        if (name == null) {
            cli.usage(err);
        } else {
            err.println("'" + name + " --help' lists its options.");
        }
        err.flush();
        return cli.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Without a command: the usage, and the status of a usage error. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: info, stat, ping, pong, perf "
            + "or help");
    }

    /** @return the exception's message, and its cause's where that says more */
    static String describe(final Throwable ex) {
        final String message = ex.getMessage() != null ? ex.getMessage() : ex.toString();
        final Throwable cause = ex.getCause();
        if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
            return message + " (" + cause.getMessage() + ")";
        }
        return message;
    }

    /** {@code --version}: the build's version, from {@code version.properties}. */
    static final class Version implements CommandLine.IVersionProvider {

        @Override
        public String[] getVersion() throws IOException {
            final Properties properties = new Properties();
            try (InputStream in = RdmaReactiveCli.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            }
            return new String[] {"rdma-reactive " + properties.getProperty("version", "(version unknown)")
                + ", Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")"};
        }
    }
}
