package dev.cairn.coordinator.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class OptionalToolTest {

    private static final OptionalTool ABSENT = new OptionalTool("absent-tool-test", "cairn-absent-tool",
            List.of(Path.of("cairn-no-such-program-on-path")));

    @Test
    void shouldFindABareNameOnThePathWhenItIsInstalled() {
        OptionalTool shell = new OptionalTool("shell", "dash", List.of(Path.of("sh")));

        List<Path> found = shell.assumeInstalled();

        assertThat(found).singleElement().satisfies(path -> {
            assertThat(path).isAbsolute().endsWithRaw(Path.of("sh"));
            assertThat(Files.isExecutable(path)).isTrue();
        });
    }

    @Test
    void shouldSkipNamingThePackagesWhenTheProgramIsMissing() {
        assertThatThrownBy(ABSENT::assumeInstalled).isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("cairn-no-such-program-on-path on PATH")
                .hasMessageContaining("apt-get install cairn-absent-tool");
    }

    @Test
    void shouldFailInsteadOfSkippingWhenTheToolIsRequired() {
        System.setProperty(ABSENT.property(), "required");
        try {
            assertThatThrownBy(ABSENT::assumeInstalled).isInstanceOf(AssertionFailedError.class)
                    .hasMessageContaining("may not be skipped");
        } finally {
            System.clearProperty(ABSENT.property());
        }
    }
}
