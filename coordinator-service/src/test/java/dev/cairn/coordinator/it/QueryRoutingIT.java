package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.testing.Events;
import dev.cairn.events.TriggerRequest;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one coordinator application, each with its own REST API: a job's state lives in one of
 * them, and either answers for it (the other forwards to the owner); either lists every job of both.
 */
@ExtendWith(KafkaClusterExtension.class)
class QueryRoutingIT {

    private static final Map<CoordinatorApp, RestClient> CLIENTS = new ConcurrentHashMap<>();

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void shouldAnswerForAJobFromEitherInstance(KafkaCluster kafka, @TempDir Path firstDir, @TempDir Path secondDir)
            throws Exception {
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, firstDir).withRestApi().start();
             CoordinatorApp second = cairn.startAnotherInstance(secondDir, CoordinatorTestBed.restApi())) {
            List<CoordinatorApp> instances = List.of(cairn.coordinator(), second);
            Awaitility.await().atMost(WAIT).until(() -> instances.stream().allMatch(app ->
                    app.streams().state() == KafkaStreams.State.RUNNING
                            && app.streams().metadataForAllStreamsClients().size() == 2));
            String job = "routing-" + UUID.randomUUID();
            cairn.register(Events.job(job, 60_000, 60_000, "source", "sink"));

            Map<String, String> servedBy = new HashMap<>();
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
                servedBy.clear();
                for (CoordinatorApp app : instances) {
                    HttpResponse<String> response = get(app, "/jobs/" + job);
                    if (response.statusCode() != 200
                            || !Json.MAPPER.readTree(response.body()).get("jid").asText().equals(job)) {
                        return false;
                    }
                    servedBy.put(server(app).applicationServer(),
                            response.headers().firstValue("X-Cairn-Served-By").orElse("?"));
                }
                return servedBy.values().stream().distinct().count() == 1;
            });

            String owner = servedBy.values().iterator().next();
            assertThat(owner).isIn(server(cairn.coordinator()).applicationServer(), server(second).applicationServer());
            assertThat(servedBy).as("the instance that does not own the job forwarded to the one that does")
                    .anySatisfy((asked, answered) -> assertThat(answered).isNotEqualTo(asked));

            CoordinatorApp notOwner = instances.stream()
                    .filter(app -> !server(app).applicationServer().equals(owner)).findFirst().orElseThrow();
            HttpResponse<String> triggered = post(notOwner, "/jobs/" + job + "/checkpoints", "{\"force\": true}");
            assertThat(triggered.statusCode()).isEqualTo(202);
            JsonNode answer = Json.MAPPER.readTree(triggered.body());
            TriggerRequest request = cairn.awaitNextJournal(TriggerRequest.class,
                    r -> r.getRequestId().equals(answer.get("request-id").asText()));
            assertThat(request.getJobId()).isEqualTo(job);
            assertThat(request.getForce()).isTrue();
        }
    }

    @Test
    void shouldListEveryJobOfBothInstancesFromEither(KafkaCluster kafka, @TempDir Path firstDir,
            @TempDir Path secondDir) throws Exception {
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, firstDir).withRestApi().start();
             CoordinatorApp second = cairn.startAnotherInstance(secondDir, CoordinatorTestBed.restApi())) {
            List<CoordinatorApp> instances = List.of(cairn.coordinator(), second);
            Awaitility.await().atMost(WAIT).until(() -> instances.stream().allMatch(app ->
                    app.streams().state() == KafkaStreams.State.RUNNING
                            && app.streams().metadataForAllStreamsClients().size() == 2));
            String prefix = "listed-" + UUID.randomUUID() + "-";
            List<String> jobs = jobsOnEveryPartition(prefix);
            jobs.forEach(job -> cairn.register(Events.job(job, 60_000, 60_000, "source")));

            Map<String, List<String>> local = new HashMap<>();
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                for (CoordinatorApp app : instances) {
                    HttpResponse<String> all = get(app, "/jobs");
                    assertThat(all.statusCode()).isEqualTo(200);
                    JsonNode listing = Json.MAPPER.readTree(all.body());
                    assertThat(listing.get("unreachable")).isEmpty();
                    assertThat(ids(listing, prefix)).containsExactlyElementsOf(jobs);
                    local.put(server(app).applicationServer(),
                            ids(Json.MAPPER.readTree(get(app, "/jobs?scope=local").body()), prefix));
                }
                assertThat(local.values()).as("each instance owns some of the jobs").allSatisfy(own ->
                        assertThat(own).isNotEmpty().hasSizeLessThan(jobs.size()));
            });
        }
    }

    /**
     * Two job ids on each of the harness' two partitions (as the producer's default partitioner places them), sorted.
     */
    private static List<String> jobsOnEveryPartition(String prefix) {
        int[] perPartition = new int[2];
        List<String> jobs = new ArrayList<>();
        for (int i = 0; jobs.size() < 4; i++) {
            int partition = Utils.toPositive(Utils.murmur2((prefix + i).getBytes(StandardCharsets.UTF_8))) % 2;
            if (perPartition[partition]++ < 2) {
                jobs.add(prefix + i);
            }
        }
        jobs.sort(null);
        return jobs;
    }

    private static List<String> ids(JsonNode listing, String prefix) {
        List<String> ids = new ArrayList<>();
        listing.get("jobs").forEach(job -> {
            if (job.get("id").asText().startsWith(prefix)) {
                ids.add(job.get("id").asText());
            }
        });
        return ids;
    }

    private static QueryServer server(CoordinatorApp app) {
        return app.queryServer().orElseThrow();
    }

    private static HttpResponse<String> get(CoordinatorApp app, String path) {
        return rest(app).get(path);
    }

    private static HttpResponse<String> post(CoordinatorApp app, String path, String body) {
        return rest(app).post(path, body);
    }

    /** One client per instance, whose pooled connections stay within the API's connections per client. */
    private static RestClient rest(CoordinatorApp app) {
        return CLIENTS.computeIfAbsent(app, a -> new RestClient(() -> server(a).uri(), CoordinatorTestBed.REST_TOKEN));
    }
}
