package io.rdmareactive.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ShmDirectoriesTest {

    @Test
    void aDirectoryIsDeletedWithWhatItHoldsAndAMissingOneIsNoError() throws IOException {
        final Path directory = ShmDirectories.create();
        Files.createDirectories(directory.resolve("a").resolve("b"));
        Files.writeString(directory.resolve("a").resolve("b").resolve("file"), "x");
        Files.writeString(directory.resolve("file"), "x");

        ShmDirectories.delete(directory);

        assertThat(directory).doesNotExist();
        ShmDirectories.delete(directory);
        ShmDirectories.delete(null);
    }
}
