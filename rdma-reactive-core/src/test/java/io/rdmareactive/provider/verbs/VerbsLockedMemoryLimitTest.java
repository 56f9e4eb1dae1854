package io.rdmareactive.provider.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A registration beyond the locked-memory limit, where that limit really holds: a JVM run as an unprivileged user
 * (no {@code CAP_IPC_LOCK}) under {@code ulimit -l 64} registers a page, and is refused 1 MiB with one
 * {@code RegistrationLimitException} whose message names {@code ulimit -l} and {@code LimitMEMLOCK}. Runs in the
 * Soft-RoCE guest, as root, with {@code setpriv} to drop to the user {@code nobody}.
 */
@Tag("verbs")
class VerbsLockedMemoryLimitTest {

    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    @BeforeAll
    static void requireDeviceRootAndSetpriv() {
        VerbsTestEnvironment.assumeVerbs();
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to start a JVM as another user");
        assumeTrue(Files.isExecutable(SETPRIV), "needs " + SETPRIV + " (util-linux) to drop privileges");
    }

    /**
     * @return this JVM's class path with its jars copied to a directory any user can read (the Maven repository the
     * guest shares may be readable by root only)
     */
    private static String readableClassPath() throws java.io.IOException {
        final Path copies = Files.createTempDirectory(Path.of("/tmp"), "rr-memlock-cp");
        Files.setPosixFilePermissions(copies, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        final List<String> entries = new java.util.ArrayList<>();
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            final Path path = Path.of(entry);
            if (Files.isRegularFile(path)) {
                final Path copy = copies.resolve(entries.size() + "-" + path.getFileName());
                Files.copy(path, copy);
                Files.setPosixFilePermissions(copy, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                entries.add(copy.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    @Test
    void anUnprivilegedProcessPastItsLockedMemoryLimitIsRefusedWithAMessageNamingTheLimit() throws Exception {
        final int status;
        final String output;
        try (ChildJvm probe = ChildJvmLauncher.of(LockedMemoryProbe.class)
            .wrappedIn(List.of(SETPRIV.toString(), "--reuid=65534", "--regid=65534", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "/bin/sh", "-c", "ulimit -l 64 && exec \"$0\" \"$@\""))
            .jvmOptions("-Xmx128m", "-XX:TieredStopAtLevel=1").classPath(readableClassPath())
            .workingDirectory(Path.of("/tmp")).start()) {
            status = probe.awaitExit(Duration.ofMinutes(3));
            output = probe.output();
        }
        System.out.println("locked-memory probe (user nobody, ulimit -l 64):\n" + output.strip());

        assertThat(status).as("the probe's exit status; it said:%n%s", output).isZero();
        assertThat(output).as("what the probe saw").contains("LIMIT 65536").contains("SMALL OK true");
        assertThat(output).as("the refusal of 1 MiB").containsPattern("REFUSED registering \\d+ more bytes on \\S+ "
            + "would pass its limit of 65536 bytes").contains("ulimit -l is 64 KiB").contains("ulimit -l unlimited")
            .contains("LimitMEMLOCK=infinity");
    }
}
