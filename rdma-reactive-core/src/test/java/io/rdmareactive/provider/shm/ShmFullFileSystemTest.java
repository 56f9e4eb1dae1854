package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A shared-memory file system that fills up while a device uses it: every file the device creates is backed when it
 * is created, so the memory it handed out stays usable (a sparse file's pages would be backed on first touch, and a
 * full tmpfs kills the touching thread with SIGBUS), and what no longer fits is refused with an error that names the
 * directory, the bytes needed and the bytes free. Runs in a child JVM on an 8 MiB tmpfs mounted in a user and mount
 * namespace of its own ({@code unshare -rm}); skipped, saying why, where the kernel does not allow those.
 */
class ShmFullFileSystemTest {

    @Test
    void aFileSystemFilledByAnotherProgramNeitherFaultsTheDevicesMemoryNorGoesUnnamed() throws Exception {
        final Path mount = Files.createTempDirectory(Path.of("/tmp"), "rrfull");
        try {
            assumeTrue(namespacesWork(mount), "unshare -rm cannot mount a tmpfs here (no user namespaces)");
            final String output;
            try (ChildJvm child = ChildJvmLauncher.of(FullFileSystemPeer.class)
                .wrappedIn(List.of("unshare", "-rm", "sh", "-c",
                    "mount -t tmpfs -o size=8m tmpfs \"$1\" && shift && exec \"$@\"", "sh", mount.toString()))
                .jvmOptions("-Xmx128m").args(mount.toString()).start()) {
                final int status = child.awaitExit(Duration.ofSeconds(120));
                output = child.output();
                assertThat(status).as("the child's exit; its output:%n%s", output).isZero();
            }
            assertThat(output).contains("touched 256 pages")
                .contains("second region: cannot create a region of 1048576 bytes in " + mount.resolve("shm")
                    + ": it needs 1048576 bytes and its file system has ")
                .contains("--shm-size");
        } finally {
            Files.deleteIfExists(mount);
        }
    }

    private static boolean namespacesWork(final Path mount) {
        try {
            final Process probe = new ProcessBuilder("unshare", "-rm", "sh", "-c",
                "mount -t tmpfs -o size=1m tmpfs \"$1\"", "sh", mount.toString()).redirectErrorStream(true).start();
            return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (final IOException | InterruptedException ex) {
            return false;
        }
    }
}
