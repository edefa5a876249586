package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.app.CoordinatorKeys;
import dev.cairn.coordinator.app.CoordinatorMain;
import dev.cairn.cli.CairnCli;
import dev.cairn.cli.CliKeys;
import dev.cairn.events.config.ConfigSchema;
import dev.cairn.sidecar.app.SidecarKeys;
import dev.cairn.sidecar.sample.SampleWorkerKeys;
import dev.cairn.sidecar.sample.SampleWorkerMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * docker-compose.yml cannot run on the build machines (no Docker engine). This keeps it consistent with
 * what can be checked: the Dockerfiles it builds exist and run the jars the build produces, and every
 * CAIRN_* variable a service sets is one that service's program reads (a key of its ConfigDef, or an
 * environment default of the sample worker's and the CLI subcommands' own flags).
 */
class DockerComposeConsistencyTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SERVICE = Pattern.compile("^  ([a-z][a-z0-9-]*):\\s*$");

    @Test
    void shouldBuildFromDockerfilesThatRunTheJarsTheBuildProduces() throws IOException {
        Set<String> dockerfiles = services().values().stream().map(Service::dockerfile)
                .filter(d -> d != null).collect(Collectors.toSet());
        assertThat(dockerfiles).containsExactlyInAnyOrder("coordinator-service/Dockerfile", "task-sidecar/Dockerfile",
                "cairn-cli/Dockerfile");
        for (String dockerfile : dockerfiles) {
            String module = dockerfile.substring(0, dockerfile.indexOf('/'));
            Matcher finalName = Pattern.compile("<finalName>(.+)</finalName>")
                    .matcher(Files.readString(ROOT.resolve(module).resolve("pom.xml")));
            assertThat(finalName.find()).as("finalName of %s", module).isTrue();
            assertThat(Files.readString(ROOT.resolve(dockerfile))).contains("/app/" + finalName.group(1) + ".jar");
        }
    }

    @Test
    void shouldRehearseTheCoordinatorWithFlagsItAccepts() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("coordinator-service/Dockerfile"));
        Matcher rehearsal = Pattern.compile("cairn-coordinator-service\\.jar \\\\\\s+(--rehearse[^\\n]*)")
                .matcher(dockerfile);

        assertThat(rehearsal.find()).as("a --rehearse run in %s", dockerfile).isTrue();
        String[] flags = rehearsal.group(1).trim().split("\\s+");
        assertThat(CoordinatorMain.commandLine().parseArgs(flags).errors()).isEmpty();
        assertThat(dockerfile).contains("-XX:SharedArchiveFile=/app/cairn-coordinator.jsa");
    }

    @Test
    void shouldSetOnlyVariablesEachServiceReads() throws IOException {
        Map<String, Service> services = services();
        assertThat(services).containsKeys("kafka", "coordinator", "worker", "sidecar-source", "sidecar-sink", "cli");
        for (Service service : services.values()) {
            Set<String> read = variablesRead(service);
            assertThat(read).as("CAIRN_* variables read by %s", service.name()).containsAll(service.variables());
        }
    }

    private static Set<String> variablesRead(Service service) {
        if (service.entrypoint().contains(SampleWorkerMain.class.getName())) {
            return envNames(SampleWorkerKeys.SCHEMA);
        }
        if ("cairn-cli/Dockerfile".equals(service.dockerfile())) {
            Set<String> names = envDefaults(CairnCli.class);
            names.addAll(envNames(CliKeys.SCHEMA));
            return names;
        }
        if ("task-sidecar/Dockerfile".equals(service.dockerfile())) {
            return envNames(SidecarKeys.SCHEMA);
        }
        if ("coordinator-service/Dockerfile".equals(service.dockerfile())) {
            return envNames(CoordinatorKeys.SCHEMA);
        }
        return Set.of();
    }

    private static Set<String> envNames(ConfigSchema schema) {
        return schema.def().names().stream().map(schema::envName).collect(Collectors.toSet());
    }

    /** The CAIRN_* variables named in the option defaults of a picocli command, its mixins and subcommands. */
    private static Set<String> envDefaults(Class<?> command) {
        Set<String> names = new HashSet<>();
        CommandLine commandLine = new CommandLine(command);
        commandLine.setInterpolateVariables(false);
        collect(commandLine.getCommandSpec(), names);
        return names;
    }

    private static void collect(CommandLine.Model.CommandSpec spec, Set<String> names) {
        spec.options().forEach(option -> {
            String text = option.defaultValue() == null ? "" : option.defaultValue();
            Matcher env = Pattern.compile("\\$\\{env:(CAIRN_[A-Z_]+)").matcher(text);
            while (env.find()) {
                names.add(env.group(1));
            }
        });
        spec.subcommands().values().forEach(sub -> collect(sub.getCommandSpec(), names));
    }

    private record Service(String name, String dockerfile, String entrypoint, Set<String> variables) {}

    private static Map<String, Service> services() throws IOException {
        Map<String, Service> services = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(ROOT.resolve("docker-compose.yml"));
        String current = null;
        StringBuilder block = new StringBuilder();
        for (String line : lines) {
            Matcher service = SERVICE.matcher(line);
            if (service.matches() || (!line.startsWith(" ") && !line.isBlank() && current != null)) {
                if (current != null) {
                    services.put(current, parse(current, block.toString()));
                }
                current = service.matches() ? service.group(1) : null;
                block.setLength(0);
            } else if (current != null) {
                block.append(line).append('\n');
            }
        }
        if (current != null) {
            services.put(current, parse(current, block.toString()));
        }
        return services;
    }

    private static Service parse(String name, String block) {
        Matcher dockerfile = Pattern.compile("dockerfile:\\s*(\\S+)").matcher(block);
        Matcher entrypoint = Pattern.compile("entrypoint:\\s*(.+)").matcher(block);
        Set<String> variables = Pattern.compile("(CAIRN_[A-Z_]+):").matcher(block).results()
                .map(m -> m.group(1)).collect(Collectors.toSet());
        return new Service(name, dockerfile.find() ? dockerfile.group(1) : null,
                entrypoint.find() ? entrypoint.group(1) : "", variables);
    }
}
