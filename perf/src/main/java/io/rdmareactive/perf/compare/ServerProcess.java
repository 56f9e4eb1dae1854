package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The rma workload's server in a JVM of its own ({@link ServerProcessMain}), started with this JVM's java, class
 * path and JVM arguments (debugging agents left out), configured as {@code transport}'s servers are. Its standard
 * error is this process's; its standard input and output carry the {@code meter} requests and readings. Over verbs
 * with two devices, it runs on the server device ({@code -Drdma.verbs.device}), and this JVM's clients of it on the
 * client device, so the one-sided operations cross the link.
 */
final class ServerProcess implements AutoCloseable {

    private static final long STOP_SECONDS = 30;

    private final Process process;
    private final PrintStream commands;
    private final BufferedReader replies;

    private ServerProcess(final Process process) {
        this.process = process;
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Starts the server and waits until it is bound.
     *
     * @param regionAddress where the region server listens
     * @param layout        the regions it registers
     * @param echoes        the echo servers' addresses and their largest message
     */
    static ServerProcess start(final ReactiveTransport transport, final String regionAddress,
                               final RegionLayout layout, final Map<String, Integer> echoes) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!argument.startsWith("-agentlib") && !argument.startsWith("-javaagent")) {
                command.add(argument);
            }
        }
        if (transport.verbsNodes() != null && transport.verbsNodes().twoDevices()) {
            // every server of it listens on node A (transport.nextAddress()): its process's runtime on node A's device
            command.add("-Drdma.verbs.device=" + transport.verbsNodes().serverDevice());
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ServerProcessMain.class.getName(),
            transport.provider(), transport.idle().spec(),
            transport.directory() == null ? "-" : transport.directory().toString(),
            transport.verbsAddress() == null ? "-" : transport.verbsAddress(), regionAddress,
            String.valueOf(layout.span())));
        echoes.forEach((address, size) -> command.add(address + "=" + size));
        final ServerProcess server = new ServerProcess(new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.INHERIT).start());
        final String first = server.replies.readLine();
        if (!ServerProcessMain.READY.equals(first)) {
            server.close();
            throw new IOException("the server process did not start (exit status " + server.exitStatus()
                + ", first line " + first + "); its standard error is above");
        }
        return server;
    }

    /** @return the server process's own {@link ProcessMeter} reading, now */
    ProcessMeter.Reading meter() throws IOException {
        commands.println(ServerProcessMain.METER);
        final String reply = replies.readLine();
        if (reply == null || !reply.startsWith(ServerProcessMain.METER + " ")) {
            throw new IOException("the server process answered '" + reply + "' to " + ServerProcessMain.METER
                + " (exit status " + exitStatus() + ")");
        }
        final String[] fields = reply.split(" ");
        return new ProcessMeter.Reading(Long.parseLong(fields[1]), Long.parseLong(fields[2]),
            Long.parseLong(fields[3]), Long.parseLong(fields[4]));
    }

    private String exitStatus() {
        return process.isAlive() ? "none: still running" : String.valueOf(process.exitValue());
    }

    /** Ends standard input, which closes the servers; kills the process if it has not exited within 30 s. */
    @Override
    public void close() {
        commands.close();
        try {
            if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_SECONDS, TimeUnit.SECONDS);
            }
        } catch (final InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
