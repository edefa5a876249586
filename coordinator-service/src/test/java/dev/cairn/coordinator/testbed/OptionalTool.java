package dev.cairn.coordinator.testbed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A program a test needs beyond a JDK and Maven (a browser, an interpreter): the test runs where it is installed,
 * and is skipped elsewhere, with a reason that names the packages to install. A build that must not skip it says
 * so with {@code -Dcairn.<name>=required} ({@code .ci/run} does, after installing the packages): the test then
 * fails instead of being skipped.
 *
 * @param name the tool's name in the system property, e.g. {@code browser}
 * @param packages the Debian packages that install it, e.g. {@code chromium chromium-driver}
 * @param executables the files the test runs
 */
public record OptionalTool(String name, String packages, List<Path> executables) {

    /** Debian's chromium and chromium-driver, which Selenium drives (it finds no browser of its own here). */
    public static final OptionalTool BROWSER = new OptionalTool("browser", "chromium chromium-driver",
            List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromedriver")));

    /** The system property that makes the tool required. */
    public String property() {
        return "cairn." + name;
    }

    /**
     * Returns when every executable is installed; otherwise skips the calling test (a JUnit assumption), or fails
     * it when {@link #property()} is {@code required}.
     */
    public void assumeInstalled() {
        List<Path> missing = executables.stream().filter(path -> !Files.isExecutable(path)).toList();
        if (missing.isEmpty()) {
            return;
        }
        String reason = "needs " + String.join(" and ", missing.stream().map(Path::toString).toList())
                + ": install Debian's " + packages + " (apt-get install " + packages + ")";
        if ("required".equals(System.getProperty(property()))) {
            Assertions.fail(reason + "; " + property() + "=required, so this test may not be skipped");
        }
        Assumptions.abort(reason + "; skipped (-D" + property() + "=required makes it fail instead)");
    }
}
