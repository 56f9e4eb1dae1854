package io.rdmareactive.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts a second JVM the way every test of this project does: the same {@code java}, this JVM's options
 * ({@link JvmOptions}: all but a debugger agent, plus the two flags rdma-reactive needs), the options given here after
 * them (so a later {@code -Xmx} or {@code -Dname=value} wins), this JVM's class path, the main class and its
 * arguments. What the child prints (stdout and stderr together) is kept line by line by the {@link ChildJvm} it
 * returns, unless {@link #inheritOutput()} sends it to this JVM's own.
 *
 * <pre>{@code
 * try (ChildJvm child = ChildJvmLauncher.of(Peer.class).jvmOptions("-Xmx128m").args(address).start()) {
 *     child.awaitLine("READY");
 *     ...
 * }
 * }</pre>
 */
public final class ChildJvmLauncher {

    /** How long a child's waits last unless {@link #bound(Duration)} says otherwise: generous, machines are shared. */
    public static final Duration DEFAULT_BOUND = Duration.ofSeconds(120);

    private final Class<?> mainClass;
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> droppedOptions = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final List<String> wrapper = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final List<String> unsetEnvironment = new ArrayList<>();
    private String classPath = System.getProperty("java.class.path");
    private Path workingDirectory;
    private Duration bound = DEFAULT_BOUND;
    private boolean inheritOutput;
    private OutputEcho echo;

    private ChildJvmLauncher(final Class<?> mainClass) {
        this.mainClass = mainClass;
    }

    /** @return a launcher of a JVM running {@code mainClass}'s {@code main} */
    public static ChildJvmLauncher of(final Class<?> mainClass) {
        return new ChildJvmLauncher(mainClass);
    }

    /** @return this, with JVM options for the child alone, after the inherited ones */
    public ChildJvmLauncher jvmOptions(final String... options) {
        return jvmOptions(List.of(options));
    }

    /** @return this, with JVM options for the child alone, after the inherited ones */
    public ChildJvmLauncher jvmOptions(final List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    /**
     * Leaves out every inherited option (the two required flags included) that starts with {@code prefix}: for a
     * child that must really lack one.
     *
     * @return this
     */
    public ChildJvmLauncher withoutInheritedOption(final String prefix) {
        droppedOptions.add(prefix);
        return this;
    }

    /** @return this, with arguments of the main class */
    public ChildJvmLauncher args(final String... arguments) {
        return args(List.of(arguments));
    }

    /** @return this, with arguments of the main class */
    public ChildJvmLauncher args(final List<String> arguments) {
        args.addAll(arguments);
        return this;
    }

    /**
     * Runs the JVM through another program: {@code command} comes first and the {@code java} command line after it
     * (for example {@code setpriv --reuid=65534 ...} or {@code unshare -rm sh -c '...' sh}).
     *
     * @return this
     */
    public ChildJvmLauncher wrappedIn(final List<String> command) {
        wrapper.addAll(command);
        return this;
    }

    /** @return this, with another class path than this JVM's */
    public ChildJvmLauncher classPath(final String path) {
        this.classPath = path;
        return this;
    }

    /** @return this, with an environment variable set for the child */
    public ChildJvmLauncher environment(final String name, final String value) {
        environment.put(name, value);
        return this;
    }

    /** @return this, with an environment variable of this JVM left out of the child's environment */
    public ChildJvmLauncher withoutEnvironment(final String name) {
        unsetEnvironment.add(name);
        return this;
    }

    /** @return this, with the child's working directory ({@code null}: this JVM's) */
    public ChildJvmLauncher workingDirectory(final Path directory) {
        this.workingDirectory = directory;
        return this;
    }

    /** @return this, with how long the child's waits ({@link ChildJvm#awaitLine}, {@link ChildJvm#awaitExit}) last */
    public ChildJvmLauncher bound(final Duration duration) {
        this.bound = duration;
        return this;
    }

    /** @return this, with the child's output shown on this JVM's stdout as it comes, each line after {@code prefix} */
    public ChildJvmLauncher echoOutput(final String prefix) {
        this.echo = new OutputEcho(prefix, System.out);
        return this;
    }

    /** @return this, with the child's output going to this JVM's stdout and stderr, not kept */
    public ChildJvmLauncher inheritOutput() {
        this.inheritOutput = true;
        return this;
    }

    /** @return the command line {@link #start()} runs */
    public List<String> command() {
        final List<String> command = new ArrayList<>(wrapper);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        JvmOptions.inherited().stream()
            .filter(option -> droppedOptions.stream().noneMatch(option::startsWith))
            .forEach(command::add);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass.getName()));
        command.addAll(args);
        return command;
    }

    /**
     * Starts the child. Close the {@link ChildJvm} (try-with-resources): that kills it if it still runs.
     *
     * @throws UncheckedIOException if the process cannot be started
     */
    public ChildJvm start() {
        final List<String> command = command();
        final ProcessBuilder builder = new ProcessBuilder(command);
        if (workingDirectory != null) {
            builder.directory(workingDirectory.toFile());
        }
        unsetEnvironment.forEach(builder.environment()::remove);
        builder.environment().putAll(environment);
        if (inheritOutput) {
            builder.inheritIO().redirectInput(ProcessBuilder.Redirect.PIPE);
        } else {
            builder.redirectErrorStream(true);
        }
        try {
            return new ChildJvm(builder.start(), command, bound, inheritOutput ? null : echo, !inheritOutput);
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot start the child JVM: " + String.join(" ", command), ex);
        }
    }
}
