package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cli.CairnCli;
import dev.cairn.cli.CliKeys;
import dev.cairn.config.ConfigSchema;
import dev.cairn.coordinator.app.CoordinatorKeys;
import dev.cairn.coordinator.app.CoordinatorMain;
import dev.cairn.sample.worker.SampleWorkerKeys;
import dev.cairn.sidecar.app.SidecarKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * what can be checked: the Dockerfiles it builds exist and run the jars the build produces, every
 * CAIRN_* variable a service sets is one that service's program reads (a key of its ConfigDef, or an
 * environment default of the sample worker's and the CLI subcommands' own flags), and it runs in the secured
 * default: the {@code keys} service makes the keys with {@code cairn keys} commands the CLI accepts, the
 * coordinator reads the master key it writes and is not told to accept unsigned records or requests, every sidecar
 * reads its own job's key and the CLI the requests key (neither can read the master key).
 */
class DockerComposeConsistencyTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SERVICE = Pattern.compile("^  ([a-z][a-z0-9-]*):\\s*$");
    private static final String ALLOW_UNSIGNED = "CAIRN_ALLOW_UNSIGNED_SIDECAR_RECORDS";
    private static final String ALLOW_UNSIGNED_REQUESTS = "CAIRN_ALLOW_UNSIGNED_REQUESTS";
    private static final String MASTER_KEY_FILE = "CAIRN_SIDECAR_MASTER_KEY_FILE";
    private static final String REQUESTS_KEY_FILE = CliKeys.SCHEMA.envName(CliKeys.REQUESTS_KEY_FILE);
    private static final String AUTH_KEY_FILE = SidecarKeys.SCHEMA.envName(SidecarKeys.AUTH_KEY_FILE);
    private static final String JOB_ID = SidecarKeys.SCHEMA.envName(SidecarKeys.JOB_ID);
    /** How the CLI's image runs it; a CLI call in a script, up to a shell operator, and where its output goes. */
    private static final String CLI_JAR = "/app/cairn-cli.jar";
    private static final Pattern CLI_CALL = Pattern.compile(
            "java -jar " + Pattern.quote(CLI_JAR) + " ([^|&;>\\n]*)(?:>\\s*(\\S+))?");

    @Test
    void shouldBuildFromDockerfilesThatRunTheJarsTheBuildProduces() throws IOException {
        Set<String> dockerfiles = services().values().stream().map(Service::dockerfile)
                .filter(d -> d != null).collect(Collectors.toSet());
        assertThat(dockerfiles).containsExactlyInAnyOrder("coordinator-service/Dockerfile", "task-sidecar/Dockerfile",
                "sample-worker/Dockerfile", "cairn-cli/Dockerfile");
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
        Matcher rehearsal = Pattern.compile("cairn-coordinator-service\\.jar \\\\\\s+(--rehearse[^\\n\\\\]*)")
                .matcher(dockerfile);

        assertThat(rehearsal.find()).as("a --rehearse run in %s", dockerfile).isTrue();
        String[] flags = rehearsal.group(1).trim().split("\\s+");
        assertThat(CoordinatorMain.commandLine().parseArgs(flags).errors()).isEmpty();
        assertThat(dockerfile).contains("-XX:SharedArchiveFile=/app/cairn-coordinator.jsa");
    }

    @Test
    void shouldSetOnlyVariablesEachServiceReads() throws IOException {
        Map<String, Service> services = services();
        assertThat(services).containsKeys("kafka", "keys", "coordinator", "worker", "sidecar-source", "sidecar-sink",
                "cli");
        for (Service service : services.values()) {
            Set<String> read = variablesRead(service);
            assertThat(read).as("CAIRN_* variables read by %s", service.name()).containsAll(service.variables());
        }
    }

    @Test
    void shouldMakeTheKeysWithCommandsTheCliAcceptsAsItsImageRunsIt() throws IOException {
        Service keys = services().get("keys");
        List<KeysCall> calls = keysCalls(keys);

        assertThat(keys.dockerfile()).isEqualTo("cairn-cli/Dockerfile");
        assertThat(Files.readString(ROOT.resolve(keys.dockerfile())))
                .contains("ENTRYPOINT [\"java\", \"-jar\", \"" + CLI_JAR + "\"]");
        assertThat(calls).extracting(KeysCall::subcommand).containsExactly("generate", "job", "requests");
        Path masterKey = masterKeyFile(calls);
        assertThat(calls.get(1).<Path>option("--master-key-file")).isEqualTo(masterKey);
        assertThat(calls.get(1).stdout()).as("where `keys job` prints the job's key").isNotNull();
        assertThat(calls.get(2).<Path>option("--master-key-file")).isEqualTo(masterKey);
        assertThat(calls.get(2).stdout()).as("where `keys requests` prints the requests key").isNotNull();
    }

    @Test
    void shouldRunTheCoordinatorSignedWithTheMasterKeyTheKeysServiceWrites() throws IOException {
        Map<String, Service> services = services();
        Service coordinator = services.get("coordinator");
        Service keys = services.get("keys");

        assertThat(envNames(CoordinatorKeys.SCHEMA)).contains(ALLOW_UNSIGNED, ALLOW_UNSIGNED_REQUESTS, MASTER_KEY_FILE);
        assertThat(coordinator.environment()).doesNotContainKeys(ALLOW_UNSIGNED, ALLOW_UNSIGNED_REQUESTS)
                .containsKey(MASTER_KEY_FILE);
        assertThat(coordinator.volumeFile(coordinator.environment().get(MASTER_KEY_FILE)))
                .isEqualTo(keys.volumeFile(masterKeyFile(keysCalls(keys)).toString()));
        assertThat(coordinator.waitsForKeys()).as("coordinator starts once the keys service has completed").isTrue();
    }

    @Test
    void shouldGiveEverySidecarItsJobsKeyAndNotTheMasterKey() throws IOException {
        Map<String, Service> services = services();
        Service keys = services.get("keys");
        List<KeysCall> calls = keysCalls(keys);
        String masterKeyVolume = keys.volumeFile(masterKeyFile(calls).toString()).volume();
        List<Service> sidecars = services.values().stream()
                .filter(s -> "task-sidecar/Dockerfile".equals(s.dockerfile())).toList();

        assertThat(sidecars).extracting(Service::name).containsExactlyInAnyOrder("sidecar-source", "sidecar-sink");
        for (Service sidecar : sidecars) {
            String jobId = sidecar.environment().get(JOB_ID);
            KeysCall jobKey = calls.stream().filter(c -> c.subcommand().equals("job")
                    && jobId.equals(c.option("--job"))).findFirst().orElseThrow(
                            () -> new AssertionError("no `keys job --job " + jobId + "` in the keys service"));
            assertThat(sidecar.environment()).as(sidecar.name()).containsKey(AUTH_KEY_FILE);
            assertThat(sidecar.volumeFile(sidecar.environment().get(AUTH_KEY_FILE))).as(sidecar.name())
                    .isEqualTo(keys.volumeFile(jobKey.stdout()));
            assertThat(sidecar.mounts()).as(sidecar.name()).doesNotContainKey(masterKeyVolume);
            assertThat(sidecar.waitsForKeys()).as("%s starts once the keys service has completed", sidecar.name())
                    .isTrue();
        }
    }

    @Test
    void shouldGiveTheCliTheRequestsKeyAndNotTheMasterKey() throws IOException {
        Map<String, Service> services = services();
        Service keys = services.get("keys");
        Service cli = services.get("cli");
        List<KeysCall> calls = keysCalls(keys);
        KeysCall requestsKey = calls.stream().filter(c -> c.subcommand().equals("requests")).findFirst()
                .orElseThrow(() -> new AssertionError("no `keys requests` in the keys service"));

        assertThat(cli.environment()).containsKey(REQUESTS_KEY_FILE)
                .doesNotContainKey(CliKeys.SCHEMA.envName(CliKeys.UNSIGNED_REQUESTS));
        assertThat(cli.volumeFile(cli.environment().get(REQUESTS_KEY_FILE)))
                .isEqualTo(keys.volumeFile(requestsKey.stdout()));
        assertThat(cli.mounts()).doesNotContainKey(keys.volumeFile(masterKeyFile(calls).toString()).volume());
        assertThat(cli.waitsForKeys()).as("the CLI starts once the keys service has completed").isTrue();
    }

    private static Set<String> variablesRead(Service service) {
        if ("sample-worker/Dockerfile".equals(service.dockerfile())) {
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

    /** One {@code cairn keys} command of the keys service's script, as the CLI parses it. */
    private record KeysCall(CommandLine.ParseResult parsed, String stdout) {

        String subcommand() {
            return parsed.subcommand().subcommand().commandSpec().name();
        }

        <T> T option(String name) {
            return parsed.subcommand().subcommand().matchedOptionValue(name, null);
        }
    }

    /** Every CLI call of {@code service}'s script, each parsed by the CLI: a malformed one fails the parse. */
    private static List<KeysCall> keysCalls(Service service) {
        List<KeysCall> calls = new ArrayList<>();
        Matcher call = CLI_CALL.matcher(service.block());
        while (call.find()) {
            CommandLine.ParseResult parsed = CairnCli.commandLine().parseArgs(call.group(1).trim().split("\\s+"));
            assertThat(parsed.subcommand().commandSpec().name()).as(call.group()).isEqualTo("keys");
            calls.add(new KeysCall(parsed, call.group(2)));
        }
        return calls;
    }

    /** The file {@code keys generate} writes the master key to. */
    private static Path masterKeyFile(List<KeysCall> calls) {
        return calls.stream().filter(c -> c.subcommand().equals("generate")).findFirst()
                .orElseThrow(() -> new AssertionError("no `keys generate` in the keys service")).option("--out");
    }

    /** A file on a named volume, as every service that mounts the volume sees the same file. */
    private record VolumeFile(String volume, String path) {}

    private record Service(String name, String dockerfile, String block) {

        Set<String> variables() {
            return environment().keySet();
        }

        /** The CAIRN_* variables the service sets, with their values (quotes removed). */
        Map<String, String> environment() {
            Map<String, String> environment = new LinkedHashMap<>();
            Pattern.compile("(?m)^\\s+(CAIRN_[A-Z_]+):\\s*\"?(.*?)\"?\\s*$").matcher(block).results()
                    .forEach(m -> environment.put(m.group(1), m.group(2)));
            return environment;
        }

        /** The named volumes the service mounts, each with its path in the container. */
        Map<String, String> mounts() {
            Map<String, String> mounts = new LinkedHashMap<>();
            Pattern.compile("(?m)^\\s+- ([a-z][a-z0-9-]*):(/[^:\\s]*)(?::ro)?\\s*$").matcher(block).results()
                    .forEach(m -> mounts.put(m.group(1), m.group(2)));
            return mounts;
        }

        /** The volume and the path in it of {@code containerPath}, which must lie on a mounted volume. */
        VolumeFile volumeFile(String containerPath) {
            return mounts().entrySet().stream().filter(m -> containerPath.startsWith(m.getValue() + "/")).findFirst()
                    .map(m -> new VolumeFile(m.getKey(), containerPath.substring(m.getValue().length() + 1)))
                    .orElseThrow(() -> new AssertionError(name + ": " + containerPath + " is on none of its volumes "
                            + mounts()));
        }

        /** Whether it starts only once the keys service has written the keys. */
        boolean waitsForKeys() {
            return Pattern.compile("(?m)^\\s+keys:\\s*\\n\\s+condition:\\s*service_completed_successfully\\s*$")
                    .matcher(block).find();
        }
    }

    /** The services of docker-compose.yml: each one's block of lines under {@code services:}. */
    private static Map<String, Service> services() throws IOException {
        Map<String, Service> services = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(ROOT.resolve("docker-compose.yml"));
        boolean inServices = false;
        String current = null;
        StringBuilder block = new StringBuilder();
        for (String line : lines) {
            boolean topLevel = !line.startsWith(" ") && !line.startsWith("#") && !line.isBlank();
            Matcher service = SERVICE.matcher(line);
            if (topLevel || (inServices && service.matches())) {
                if (current != null) {
                    services.put(current, parse(current, block.toString()));
                }
                inServices = topLevel ? line.startsWith("services:") : inServices;
                current = inServices && service.matches() ? service.group(1) : null;
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
        return new Service(name, dockerfile.find() ? dockerfile.group(1) : null, block);
    }
}
