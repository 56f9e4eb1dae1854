package io.rdmareactive.provider.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = List.of(SETPRIV.toString(), "--reuid=65534", "--regid=65534", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "/bin/sh", "-c", "ulimit -l 64 && exec \"$0\" \"$@\"", java,
            "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", readableClassPath(),
            LockedMemoryProbe.class.getName());
        final Process process = new ProcessBuilder(command).directory(new File("/tmp")).redirectErrorStream(true)
            .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("the probe finished; it said:%n%s", output).isTrue();
        System.out.println("locked-memory probe (user nobody, ulimit -l 64):\n" + output.strip());

        assertThat(process.exitValue()).as("the probe's exit status; it said:%n%s", output).isZero();
        assertThat(output).as("what the probe saw").contains("LIMIT 65536").contains("SMALL OK true");
        assertThat(output).as("the refusal of 1 MiB").containsPattern("REFUSED registering \\d+ more bytes on \\S+ "
            + "would pass its limit of 65536 bytes").contains("ulimit -l is 64 KiB").contains("ulimit -l unlimited")
            .contains("LimitMEMLOCK=infinity");
    }
}
