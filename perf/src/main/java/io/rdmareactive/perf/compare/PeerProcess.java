package io.rdmareactive.perf.compare;

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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One peer of the peer-kill workload, a JVM of its own ({@link PeerMain}) started as the rma workload's server is
 * ({@link ServerProcess}: this JVM's java, class path and JVM arguments). A thread reads its standard output: the
 * failures it reports are kept by peer, every other line answers the last command.
 */
final class PeerProcess implements AutoCloseable {

    /** A failure a peer's API reported: when ({@code System.nanoTime()}, the machine's monotonic clock) and how. */
    record Report(long nanoTime, String how) {
    }

    private static final long ANSWER_SECONDS = 60;

    private final Process process;
    private final PrintStream commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final Map<Integer, Report> failures = new ConcurrentHashMap<>();

    /**
     * @param jvmOptions JVM options after this JVM's (a later {@code -D} of the same name wins)
     * @param arguments  {@link PeerMain}'s arguments
     */
    PeerProcess(final List<String> jvmOptions, final List<String> arguments) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!argument.startsWith("-agentlib") && !argument.startsWith("-javaagent")) {
                command.add(argument);
            }
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PeerMain.class.getName()));
        command.addAll(arguments);
        this.process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        final BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8));
        Thread.ofPlatform().daemon().name("peer-" + process.pid() + "-reader").start(() -> read(lines));
    }

    private void read(final BufferedReader lines) {
        try {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("failed ")) {
                    final String[] words = line.split(" ", 4);
                    failures.putIfAbsent(Integer.parseInt(words[1]), new Report(Long.parseLong(words[2]),
                        words.length > 3 ? words[3] : ""));
                } else {
                    answers.add(line);
                }
            }
        } catch (final IOException ex) {
            answers.add("closed " + ex);
        }
        answers.add("closed");
    }

    /** @return the answer to {@code command}, which starts with {@code expected}'s word */
    String ask(final String command, final String expected) throws IOException, InterruptedException {
        if (command != null) {
            commands.println(command);
        }
        final String answer = answers.poll(ANSWER_SECONDS, TimeUnit.SECONDS);
        if (answer == null || !answer.startsWith(expected)) {
            throw new IOException("peer process " + process.pid() + " answered '" + answer + "' to '" + command
                + "' (alive: " + process.isAlive() + "; its standard error is above)");
        }
        return answer;
    }

    /** Sends a command that has no answer. */
    void send(final String command) {
        commands.println(command);
    }

    /** @return the numbers after an answer's first word */
    static long[] numbers(final String answer) {
        final String[] words = answer.split(" ");
        final long[] numbers = new long[words.length - 1];
        for (int i = 1; i < words.length; i++) {
            numbers[i - 1] = Long.parseLong(words[i]);
        }
        return numbers;
    }

    /** @return the first failure this peer reported about {@code peer}, or null */
    Report failure(final int peer) {
        return failures.get(peer);
    }

    /** Kills the process with SIGKILL and waits for it to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Ends standard input, which closes the peer; kills it if it has not exited within 10 s. */
    @Override
    public void close() {
        commands.close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (final InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
