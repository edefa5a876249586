package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.cairn.coordinator.app.CoordinatorKeys;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.sources.HealthSource;
import dev.cairn.coordinator.testbed.NoJobs;
import dev.cairn.core.contract.InputLimits;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/kubernetes/coordinator.yaml} cannot be applied on the build machines (no cluster). This keeps it
 * consistent with what can be checked: every {@code CAIRN_*} variable is a key the coordinator reads; the probes ask
 * a real REST server the paths that answer liveness and readiness, on the probes port the coordinator listens on
 * (not the API's, which clients may flood), bound to an address the kubelet can reach; the image, the state volume and
 * the port are those of {@code coordinator-service/Dockerfile}, whose entry point runs the jar the build produces; and
 * each pod advertises its name under the headless Service the StatefulSet names; a NetworkPolicy lets only the other
 * instances and labelled clients reach the API's port, and only the scraper's namespace the probes port.
 */
class KubernetesManifestConsistencyTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path MANIFEST = ROOT.resolve("docs/kubernetes/coordinator.yaml");
    private static final Path DOCKERFILE = ROOT.resolve("coordinator-service/Dockerfile");

    @Test
    void shouldSetOnlyVariablesTheCoordinatorReadsWhenItRunsThePods() throws IOException {
        Set<String> read = CoordinatorKeys.SCHEMA.def().names().stream().map(CoordinatorKeys.SCHEMA::envName)
                .collect(Collectors.toSet());

        Map<String, String> env = environment(container());

        assertThat(env.keySet().stream().filter(name -> name.startsWith("CAIRN_")).toList())
                .as("CAIRN_* variables of %s", MANIFEST).isNotEmpty().allSatisfy(name -> assertThat(read)
                        .as("keys the coordinator reads (docs/configuration.md)").contains(name));
        assertThat(env).containsKeys("CAIRN_INSTANCE_ID", "CAIRN_ADVERTISED_HOST", "CAIRN_STATE_DIR",
                "CAIRN_HTTP_PORT", "CAIRN_HTTP_BIND_ADDRESS", "CAIRN_SIDECAR_MASTER_KEY_FILE");
    }

    @Test
    void shouldProbeTheLivenessAndReadinessPathsOnTheProbesPortWhenTheCoordinatorServesThem() throws Exception {
        JsonNode container = container();
        Map<String, String> env = environment(container);
        JsonNode port = container.get("ports").get(0);
        assertThat(port.get("containerPort").asText()).isEqualTo(env.get("CAIRN_HTTP_PORT"));
        JsonNode probesPort = container.get("ports").get(1);
        assertThat(probesPort.get("containerPort").asText()).as("the port of the probes")
                .isEqualTo(env.get("CAIRN_HTTP_PROBES_PORT")).isNotEqualTo(env.get("CAIRN_HTTP_PORT"));
        assertThat(env.get("CAIRN_HTTP_BIND_ADDRESS")).as("an address the kubelet reaches, not loopback")
                .isEqualTo("0.0.0.0");
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            assertThat(container.at("/" + probe + "/httpGet/port").asText()).as(probe + ", not the API's port")
                    .isIn(probesPort.get("name").asText(), probesPort.get("containerPort").asText());
        }

        try (QueryServer server = QueryServer.bind(QueryServerConfig.of("127.0.0.1", 0, "127.0.0.1")
                .withProbesPort(0))) {
            server.start(new NoJobs(), new AliveButNotReady(), (jobId, request) -> {
                throw new UnsupportedOperationException("no requests in this test");
            }, InputLimits.DEFAULTS, UnaryOperator.identity());
            URI probes = URI.create("http://127.0.0.1:" + server.probesPort());
            assertThat(get(probes, container.at("/startupProbe/httpGet/path").asText()).statusCode()).isEqualTo(200);
            HttpResponse<String> liveness = get(probes, container.at("/livenessProbe/httpGet/path").asText());
            assertThat(liveness.statusCode()).as("liveness while alive but not ready").isEqualTo(200);
            assertThat(liveness.body()).isEqualTo("{\"status\":\"UP\"}");
            HttpResponse<String> readiness = get(probes, container.at("/readinessProbe/httpGet/path").asText());
            assertThat(readiness.statusCode()).as("readiness while alive but not ready").isEqualTo(503);
            assertThat(readiness.body()).contains("\"status\":\"DOWN\"", AliveButNotReady.REASON);
        }
    }

    @Test
    void shouldRunTheImageTheDockerfileBuildsWithItsVolumeAndPort() throws IOException {
        String dockerfile = Files.readString(DOCKERFILE);
        JsonNode container = container();
        Map<String, String> env = environment(container);

        Matcher build = Pattern.compile("docker build -f coordinator-service/Dockerfile -t (\\S+) \\.")
                .matcher(dockerfile);
        assertThat(build.find()).as("the build command in %s", DOCKERFILE).isTrue();
        assertThat(container.get("image").asText()).startsWith(build.group(1) + ":");
        assertThat(container.has("command")).as("the Dockerfile's ENTRYPOINT runs the coordinator").isFalse();
        assertThat(container.has("args")).isFalse();
        Matcher finalName = Pattern.compile("<finalName>(.+)</finalName>")
                .matcher(Files.readString(ROOT.resolve("coordinator-service/pom.xml")));
        assertThat(finalName.find()).isTrue();
        assertThat(dockerfile).containsPattern("ENTRYPOINT \\[.*\"-jar\", \"/app/" + finalName.group(1) + ".jar\"\\]");

        Matcher volume = Pattern.compile("(?m)^VOLUME (\\S+)$").matcher(dockerfile);
        assertThat(volume.find()).isTrue();
        assertThat(env.get("CAIRN_STATE_DIR")).isEqualTo(volume.group(1));
        JsonNode state = mounts(container).get("state");
        assertThat(state).as("a volume mounted at the state directory").isNotNull();
        assertThat(state.get("mountPath").asText()).isEqualTo(volume.group(1));
        assertThat(statefulSet().at("/spec/volumeClaimTemplates/0/metadata/name").asText()).isEqualTo("state");

        Matcher expose = Pattern.compile("(?m)^EXPOSE (\\d+)$").matcher(dockerfile);
        assertThat(expose.find()).isTrue();
        assertThat(container.at("/ports/0/containerPort").asText()).isEqualTo(expose.group(1));
        assertThat(expose.find()).as("the probes port exposed too").isTrue();
        assertThat(container.at("/ports/1/containerPort").asText()).isEqualTo(expose.group(1));
    }

    @Test
    void shouldAdvertiseEachPodUnderTheHeadlessServiceWhenTheStatefulSetNamesIt() throws IOException {
        JsonNode statefulSet = statefulSet();
        String serviceName = statefulSet.at("/spec/serviceName").asText();
        Map<String, String> env = environment(container());

        assertThat(env.get("CAIRN_INSTANCE_ID")).isEqualTo("$(POD_NAME)");
        assertThat(env.get("CAIRN_ADVERTISED_HOST")).isEqualTo("$(POD_NAME)." + serviceName);
        assertThat(container().at("/env/0/name").asText()).as("POD_NAME is defined before it is used")
                .isEqualTo("POD_NAME");
        JsonNode peers = documents().stream().filter(d -> d.at("/kind").asText().equals("Service")
                && d.at("/metadata/name").asText().equals(serviceName)).findFirst().orElseThrow();
        assertThat(peers.at("/spec/clusterIP").asText()).isEqualTo("None");
        assertThat(peers.at("/spec/publishNotReadyAddresses").asBoolean())
                .as("instances restoring their stores are still reached by the others").isTrue();
        assertThat(statefulSet.at("/spec/template/metadata/labels")).isEqualTo(peers.at("/spec/selector"));
    }

    @Test
    void shouldLetOnlyTheInstancesAndLabelledClientsReachTheApiAndOnlyTheScraperReachTheProbesPort()
            throws IOException {
        JsonNode policy = documents().stream().filter(d -> d.at("/kind").asText().equals("NetworkPolicy"))
                .findFirst().orElseThrow(() -> new AssertionError("no NetworkPolicy in " + MANIFEST));
        JsonNode container = container();
        String api = container.at("/ports/0/name").asText();
        String probes = container.at("/ports/1/name").asText();

        assertThat(policy.at("/spec/podSelector/matchLabels")).as("the coordinator's pods")
                .isEqualTo(statefulSet().at("/spec/template/metadata/labels"));
        assertThat(policy.at("/spec/policyTypes").toString()).isEqualTo("[\"Ingress\"]");
        JsonNode rules = policy.at("/spec/ingress");
        assertThat(rules).hasSize(2).allSatisfy(rule -> {
            assertThat(rule.get("from")).as("every rule names its sources: none is open to all").isNotEmpty();
            assertThat(rule.get("ports")).hasSize(1);
        });
        JsonNode apiRule = rules.get(0);
        assertThat(apiRule.at("/ports/0/port").asText()).isEqualTo(api);
        assertThat(apiRule.at("/from/0/podSelector/matchLabels")).as("the other instances, which forward REST calls")
                .isEqualTo(policy.at("/spec/podSelector/matchLabels"));
        assertThat(apiRule.at("/from/1/podSelector/matchLabels/cairn-client").asText()).isEqualTo("true");
        JsonNode probesRule = rules.get(1);
        assertThat(probesRule.at("/ports/0/port").asText()).isEqualTo(probes);
        assertThat(probesRule.at("/from/0/namespaceSelector/matchLabels").isObject())
                .as("the scraper's namespace only").isTrue();
        assertThat(probesRule.at("/from/0/podSelector").isMissingNode()).isTrue();
    }

    private static List<JsonNode> documents() throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> it = new YAMLMapper().readerFor(JsonNode.class)
                .readValues(MANIFEST.toFile())) {
            it.forEachRemaining(documents::add);
        }
        return documents;
    }

    private static JsonNode statefulSet() throws IOException {
        return documents().stream().filter(d -> d.at("/kind").asText().equals("StatefulSet")).findFirst()
                .orElseThrow(() -> new AssertionError("no StatefulSet in " + MANIFEST));
    }

    private static JsonNode container() throws IOException {
        JsonNode containers = statefulSet().at("/spec/template/spec/containers");
        assertThat(containers).as("the StatefulSet's containers").hasSize(1);
        return containers.get(0);
    }

    private static Map<String, String> environment(JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        container.get("env").forEach(e -> env.put(e.get("name").asText(), e.path("value").asText(null)));
        return env;
    }

    private static Map<String, JsonNode> mounts(JsonNode container) {
        Map<String, JsonNode> mounts = new LinkedHashMap<>();
        container.get("volumeMounts").forEach(m -> mounts.put(m.get("name").asText(), m));
        return mounts;
    }

    private static HttpResponse<String> get(URI base, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An instance whose Kafka Streams runs but has not restored its stores yet. */
    private static final class AliveButNotReady implements HealthSource {

        static final String REASON = "restoring the stores of partition 0";

        @Override
        public Health liveness() {
            return Health.up();
        }

        @Override
        public Health readiness() {
            return Health.down(REASON);
        }
    }
}
