package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Counters files that runtimes leave behind: a runtime killed with SIGKILL, or whose JVM exits without disposing it,
 * leaves its counters file and the liveness file beside it; the next runtime created in the same directory removes
 * them, and keeps the files of runtimes that still run (in another process, or in this one) and every file that is not
 * a runtime's counters file: other files, files named like counters files that are not, and symbolic links (neither
 * followed nor removed).
 */
class CountersCleanupTest {

    @ShmTestDirectory
    private Path directory;
    @ShmTestDirectory
    private Path outside;
    private final List<ChildJvm> children = new ArrayList<>();
    private final List<RdmaRuntime> runtimes = new ArrayList<>();

    @AfterEach
    void stop() {
        runtimes.forEach(RdmaRuntime::dispose);
        children.forEach(ChildJvm::close);
    }

    @Test
    void theNextRuntimeRemovesTheFilesOfRuntimesThatAreGoneAndKeepsTheRest() throws Exception {
        final Child killed = start();
        final Child exited = start();
        final Child running = start();
        final RdmaRuntime here = track(runtime());
        for (final String name : List.of(killed.name, exited.name, running.name, here.name())) {
            assertThat(counters(name)).as("the counters file of " + name).isRegularFile();
            assertThat(liveness(name)).as("the liveness file of " + name).isRegularFile();
        }

        killed.jvm.kill(); // SIGKILL: nothing of its own runs
        assertThat(killed.jvm.isAlive()).as("the killed child ended").isFalse();
        exited.jvm.send("exit"); // System.exit(0) without disposing its runtime
        assertThat(exited.jvm.awaitExit(Duration.ofSeconds(30))).as("the exit status of the child that exits")
            .isZero();
        for (final Child gone : List.of(killed, exited)) {
            assertThat(counters(gone.name)).as("the counters file of %s, gone: left until the next runtime", gone.name)
                .isRegularFile();
            assertThat(liveness(gone.name)).as("its liveness file").isRegularFile();
        }

        // what the next runtime must leave alone, beside them
        final long dead = killed.jvm.pid();
        final Path notes = Files.writeString(directory.resolve("notes.txt"), "not a counters file");
        final Path impostor = Files.writeString(directory.resolve("shm-" + dead + "-900.counters"),
            "named like a runtime's counters file of a process that is gone, but not one");
        final Path victim = Files.copy(counters(killed.name), outside.resolve("victim.counters")); // a dead one's
        final Path link = Files.createSymbolicLink(directory.resolve("shm-" + dead + "-901.counters"), victim);
        final Path linkedLiveness = Files.createSymbolicLink(directory.resolve("shm-" + dead + "-902.counters.live"),
            Files.writeString(outside.resolve("victim.live"), "a file elsewhere"));
        final Path besideTheLink = Files.copy(counters(killed.name), counters("shm-" + dead + "-902"));
        final byte[] victimBytes = Files.readAllBytes(victim);

        final RdmaRuntime next = track(runtime());

        for (final Child gone : List.of(killed, exited)) {
            assertThat(counters(gone.name)).as("the counters file of %s, gone", gone.name).doesNotExist();
            assertThat(liveness(gone.name)).as("the liveness file of %s, gone", gone.name).doesNotExist();
        }
        for (final String live : List.of(running.name, here.name(), next.name())) {
            assertThat(counters(live)).as("the counters file of %s, running", live).isRegularFile();
            assertThat(liveness(live)).as("the liveness file of %s, running", live).isRegularFile();
        }
        assertThat(running.jvm.isAlive()).isTrue();
        assertThat(notes).hasContent("not a counters file");
        assertThat(impostor).hasContent("named like a runtime's counters file of a process that is gone, but not one");
        assertThat(Files.isSymbolicLink(link)).as("the link to a dead one's counters file elsewhere").isTrue();
        assertThat(Files.isSymbolicLink(linkedLiveness)).as("the link in place of a liveness file").isTrue();
        assertThat(besideTheLink).as("a dead one's counters file whose liveness file is a link").isRegularFile();
        assertThat(Files.readAllBytes(victim)).as("the file the link leads to").isEqualTo(victimBytes);
        assertThat(outside.resolve("victim.live")).hasContent("a file elsewhere");
        assertThat(names()).as("every file left").containsExactlyInAnyOrderElementsOf(expectedNames(running.name, here.name(),
            next.name(), notes, impostor, link, linkedLiveness, besideTheLink));
    }

    @Test
    void aRuntimeDisposedLeavesNoCountersFile() {
        final RdmaRuntime runtime = runtime();
        final String name = runtime.name();
        assertThat(counters(name)).isRegularFile();
        runtime.dispose();
        assertThat(counters(name)).doesNotExist();
        assertThat(liveness(name)).doesNotExist();
    }

    private List<String> expectedNames(final String running, final String here, final String next,
                                       final Path... others) {
        final List<String> names = new ArrayList<>();
        for (final String live : List.of(running, here, next)) {
            names.add(counters(live).getFileName().toString());
            names.add(liveness(live).getFileName().toString());
        }
        for (final Path other : others) {
            names.add(other.getFileName().toString());
        }
        // the shared-memory devices' own files (the runtimes' devices live in the same directory)
        for (final String name : names()) {
            if (!name.contains(".counters") && !name.equals("notes.txt")) {
                names.add(name);
            }
        }
        return names;
    }

    private RdmaRuntime runtime() {
        return RdmaRuntime.builder().provider("shm").directory(directory).loops(1).idleStrategy("backoff").build();
    }

    private RdmaRuntime track(final RdmaRuntime runtime) {
        runtimes.add(runtime);
        return runtime;
    }

    private Path counters(final String name) {
        return directory.resolve(name + ".counters");
    }

    private Path liveness(final String name) {
        return directory.resolve(name + ".counters.live");
    }

    private List<String> names() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).toList();
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Starts a {@link RuntimeChild} and waits until its runtime is up. */
    private Child start() {
        final ChildJvm jvm = ChildJvmLauncher.of(RuntimeChild.class).jvmOptions("-Xmx64m", "-XX:TieredStopAtLevel=1")
            .args(directory.toString()).start();
        children.add(jvm);
        return new Child(jvm, jvm.awaitLine("READY ").substring("READY ".length()));
    }

    /** A child JVM and the name of its runtime. */
    private record Child(ChildJvm jvm, String name) {
    }

    /**
     * The child: creates a runtime in the directory given, says {@code READY <name>}, then waits for a line on its
     * input: {@code exit} ends the JVM at once with the runtime undisposed; nothing else ends it but a kill.
     */
    public static final class RuntimeChild {
        private RuntimeChild() {
        }

        public static void main(final String[] args) throws IOException {
            final RdmaRuntime runtime = RdmaRuntime.builder().provider("shm").directory(Path.of(args[0])).loops(1)
                .idleStrategy("backoff").build();
            System.out.println("READY " + runtime.name());
            System.out.flush();
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("exit")) {
                    System.exit(0);
                }
            }
            // the test's end closed the pipe: wait for the kill
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MINUTES.toNanos(2));
        }
    }
}
