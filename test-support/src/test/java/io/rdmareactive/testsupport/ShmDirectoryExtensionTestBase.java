package io.rdmareactive.testsupport;

import java.nio.file.Path;

/** A superclass's private {@link ShmDirectory} field, as a fixture of several test classes would have it. */
abstract class ShmDirectoryExtensionTestBase {

    @ShmDirectory
    Path inherited;
}
