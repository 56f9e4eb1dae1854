package io.rdmareactive.cli;

import io.rdmareactive.internal.driver.CountersReaderTool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rdma-reactive stat}: the counters of every runtime on this host, as AeronStat shows a media driver's. Each
 * runtime keeps its counters in {@code <directory>/<provider>-<pid>-<n>.counters}; the default directory is the
 * runtimes' default, {@code /dev/shm/rdma-reactive-$USER}. Each file is read by core's {@link CountersReaderTool}
 * (mapped read-only: the runtime is never disturbed), and its lines are laid out here.
 */
@Command(name = "stat", mixinStandardHelpOptions = true, sortOptions = false,
    versionProvider = RdmaReactiveCli.Version.class,
    header = "Every rdma-reactive runtime's counters on this host, refreshed like AeronStat.",
    description = {"Lists the counters files in the directory (one per runtime: <provider>-<pid>-<n>.counters) and "
        + "shows each runtime's counters: messages and bytes each way, back-pressure events, credit stalls, errors, "
        + "loop stalls. Files are mapped read-only: a running runtime is never disturbed. A runtime whose process is "
        + "gone shows as 'gone' for as long as its file is left.", ""},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:the counters were shown", "1:a directory or file named cannot be read",
        "2:wrong options"})
final class StatCommand implements Callable<Integer> {

    static final String SUFFIX = ".counters";
    private static final Pattern HEADER = Pattern.compile("# (.+): process (-?[0-9]+)( \\(gone\\))?, at .+");
    private static final Pattern COUNTER = Pattern.compile("(.*) = (-?[0-9]+)");
    private static final String CLEAR_SCREEN = "\u001b[H\u001b[2J";

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "0..*",
        description = "Directories holding counters files, or counters files (default: the runtimes' default "
            + "directory, /dev/shm/rdma-reactive-$USER, or under java.io.tmpdir where /dev/shm is missing)")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--once", description = "Print one snapshot and exit")
    boolean once;

    @Option(names = {"-w", "--watch"},
        description = "Refresh until Ctrl-C (the default), clearing the screen on a terminal")
    boolean watch;

    @Option(names = {"-i", "--interval"}, paramLabel = "TIME", defaultValue = "1s", converter = Durations.class,
        description = "Time between refreshes, e.g. 500ms, 2s (default: ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = {"-n", "--count"}, paramLabel = "N",
        description = "Stop after N snapshots (default: until Ctrl-C, or 1 with --once)")
    Integer count;

    private final PrintStream out;

    StatCommand(final PrintStream out) {
        this.out = out;
    }

    /** @return where runtimes keep their counters unless told otherwise: as the runtime and the shm provider decide */
    static Path defaultDirectory() {
        final String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        final Path shm = Path.of("/dev/shm");
        return (Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")))
            .resolve("rdma-reactive-" + user);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (once && watch) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--once and --watch exclude each other");
        }
        if (interval.isZero() || interval.isNegative()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--interval must be positive");
        }
        if (count != null && count < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--count must be at least 1");
        }
        final List<Path> where = paths.isEmpty() ? List.of(defaultDirectory()) : paths;
        final int snapshots = once ? 1 : count != null ? count : Integer.MAX_VALUE;
        final boolean clear = snapshots > 1 && System.console() != null && System.console().isTerminal();
        int status = 0;
        for (int snapshot = 0; snapshot < snapshots; snapshot++) {
            if (snapshot > 0) {
                Thread.sleep(interval.toMillis());
            }
            final StringBuilder screen = new StringBuilder();
            status = snapshot(where, screen);
            out.print(clear ? CLEAR_SCREEN + screen : (snapshot > 0 ? System.lineSeparator() : "") + screen);
            out.flush();
        }
        return status;
    }

    /** Lays one snapshot of every runtime out into {@code screen}; @return 1 if a path named cannot be read */
    private int snapshot(final List<Path> where, final StringBuilder screen) {
        int status = 0;
        final List<Path> files = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        for (final Path path : where) {
            if (Files.isDirectory(path)) {
                try (Stream<Path> listing = Files.list(path)) {
                    listing.filter(StatCommand::isCountersFile).sorted().forEach(files::add);
                } catch (final IOException ex) {
                    problems.add("cannot list " + path + ": " + ex.getMessage());
                    status = 1;
                }
            } else if (Files.exists(path)) {
                files.add(path);
            } else {
                problems.add(path + " does not exist" + (path.equals(defaultDirectory())
                    ? " (no rdma-reactive runtime of this user has run here since the machine started)" : ""));
                status = 1;
            }
        }
        screen.append(String.format(Locale.ROOT, "rdma-reactive stat: %s, %s, %d counters file%s%n",
            String.join(", ", where.stream().map(Path::toString).toList()),
            Instant.now().truncatedTo(ChronoUnit.MILLIS), files.size(), files.size() == 1 ? "" : "s"));
        for (final String problem : problems) {
            screen.append("  ").append(problem).append(System.lineSeparator());
        }
        if (files.isEmpty() && problems.isEmpty()) {
            screen.append("  no runtime has its counters here").append(System.lineSeparator());
        }
        for (final Path file : files) {
            appendRuntime(file, screen);
        }
        return status;
    }

    /** One runtime: a line naming it, its process and whether that still runs, then one line per counter. */
    private void appendRuntime(final Path file, final StringBuilder screen) {
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final ByteArrayOutputStream problem = new ByteArrayOutputStream();
        final int status;
        try (PrintStream outLines = new PrintStream(printed, true, StandardCharsets.UTF_8);
             PrintStream errLines = new PrintStream(problem, true, StandardCharsets.UTF_8)) {
            status = CountersReaderTool.run(new String[] {file.toAbsolutePath().toString()}, outLines, errLines);
        }
        final String name = file.getFileName().toString();
        final String runtime = name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : name;
        screen.append(System.lineSeparator());
        if (status != 0) {
            // e.g. the runtime closed (and removed its file) between the listing and the reading
            screen.append(runtime).append("  ").append(problem.toString(StandardCharsets.UTF_8).strip())
                .append(System.lineSeparator());
            return;
        }
        for (final String line : printed.toString(StandardCharsets.UTF_8).lines().toList()) {
            final Matcher header = HEADER.matcher(line);
            final Matcher counter = COUNTER.matcher(line);
            if (header.matches()) {
                screen.append(String.format(Locale.ROOT, "%s  process %s, %s  (%s)%n", runtime, header.group(2),
                    header.group(3) == null ? "running" : "gone", header.group(1)));
            } else if (counter.matches()) {
                screen.append(String.format(Locale.ROOT, "  %,20d  %s%n", Long.parseLong(counter.group(2)),
                    counter.group(1)));
            } else {
                screen.append("  ").append(line).append(System.lineSeparator());
            }
        }
    }

    private static boolean isCountersFile(final Path path) {
        final String name = path.getFileName().toString();
        return name.endsWith(SUFFIX) && !name.startsWith(".") && Files.isRegularFile(path);
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m}: a whole number and a unit. */
    static final class Durations implements CommandLine.ITypeConverter<Duration> {

        private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m)");

        @Override
        public Duration convert(final String value) {
            final Matcher matcher = DURATION.matcher(value);
            if (!matcher.matches()) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a time such as 500ms, 2s "
                    + "or 1m");
            }
            final long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                default -> Duration.ofMinutes(amount);
            };
        }
    }
}
