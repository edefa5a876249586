package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.CairnCli;
import dev.cairn.coordinator.app.CoordinatorMain;
import dev.cairn.pipeline.PipelineWorkerMain;
import dev.cairn.sample.worker.SampleWorkerMain;
import dev.cairn.sidecar.app.SidecarMain;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --version} of every program (this module sees them all): each prints its name and the version of the
 * project's pom, as Flink's {@code flink --version} does, however it is run (from classes here, from a jar in a
 * release).
 */
class VersionFlagTest {

    @Test
    void shouldPrintThePomsVersionWhenAnyProgramIsAskedForItsVersion() throws Exception {
        String version = pomVersion();
        Map<String, CommandLine> programs = Map.of(
                "cairn", CairnCli.commandLine(),
                "cairn-coordinator", CoordinatorMain.commandLine(),
                "cairn-demo", new CommandLine(new DemoMain(new PrintStream(PrintStream.nullOutputStream()))),
                "cairn-sidecar", sidecar(),
                "cairn-sample-worker", viaEnvironment(SampleWorkerMain.class),
                "cairn-pipeline-worker", viaEnvironment(PipelineWorkerMain.class));

        programs.forEach((name, commandLine) -> {
            StringWriter out = new StringWriter();
            commandLine.setOut(new PrintWriter(out, true));

            int exit = commandLine.execute("--version");

            assertThat(exit).as(name).isZero();
            assertThat(out.toString()).as(name).startsWith(name + " " + version + System.lineSeparator())
                    .contains("Java ");
        });
    }

    /** The version of the project: the parent's version this module's pom names. */
    private static String pomVersion() throws IOException {
        Matcher version = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL)
                .matcher(Files.readString(Path.of("pom.xml")));
        assertThat(version.find()).as("a parent version in pom.xml").isTrue();
        return version.group(1);
    }

    /** The command line a program's package-private {@code commandLine(Map)} builds, with an empty environment. */
    private static CommandLine viaEnvironment(Class<?> main) throws ReflectiveOperationException {
        Method commandLine = main.getDeclaredMethod("commandLine", Map.class);
        commandLine.setAccessible(true);
        return (CommandLine) commandLine.invoke(null, Map.of());
    }

    /** The sidecar's command line, which never starts a sidecar for {@code --version}. */
    private static CommandLine sidecar() throws ReflectiveOperationException {
        Constructor<SidecarMain> constructor = SidecarMain.class.getDeclaredConstructor(Map.class, Function.class);
        constructor.setAccessible(true);
        SidecarMain main = constructor.newInstance(Map.of(), (Function<Object, Object>) config -> {
            throw new AssertionError("--version starts no sidecar");
        });
        Method commandLine = SidecarMain.class.getDeclaredMethod("commandLine", SidecarMain.class);
        commandLine.setAccessible(true);
        return (CommandLine) commandLine.invoke(null, main);
    }
}
