package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.testsupport.ShmTestDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/**
 * The directory a runtime writes its counters file into when none is configured (a verbs runtime's default,
 * /dev/shm/rdma-reactive-USER) follows the shared-memory directory's rules: created 0700, its mode set back if it was
 * loosened, and a symbolic link planted in its place refused.
 */
class CountersDirectoryTest {

    @ShmTestDirectory
    private Path parent;

    @Test
    void aNewDirectoryIsTheUsersAlone() throws IOException {
        final Path directory = RdmaRuntime.privateCountersDirectory(parent.resolve("rdma-reactive-me"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
    }

    @Test
    void aLoosenedModeIsSetBack() throws IOException {
        final Path directory = Files.createDirectory(parent.resolve("loose"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
        RdmaRuntime.privateCountersDirectory(directory);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
    }

    @Test
    void aSymbolicLinkInItsPlaceIsRefused() throws IOException {
        final Path elsewhere = Files.createDirectory(parent.resolve("elsewhere"));
        final Path link = Files.createSymbolicLink(parent.resolve("rdma-reactive-victim"), elsewhere);
        assertThatThrownBy(() -> RdmaRuntime.privateCountersDirectory(link))
            .isInstanceOf(RdmaConnectionException.class)
            .hasMessageContaining("the counters directory " + link)
            .hasMessageContaining("is not a directory (or is a symbolic link)");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.exists(elsewhere.resolve("x"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
