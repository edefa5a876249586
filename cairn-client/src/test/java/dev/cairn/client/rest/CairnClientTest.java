package dev.cairn.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link CairnClient} against a {@link FakeCoordinator}: its futures complete with outcomes or fail with reasons. */
class CairnClientTest {

    private static final String TOKEN = "ops-token-0123456789";
    private static final String STATUS = "/jobs/orders/savepoints/sp-1";

    private final FakeCoordinator api = new FakeCoordinator();
    private final CairnClient client = new CairnClient(api.uri(), TOKEN, Duration.ofSeconds(5));

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void shouldCompleteWithTheLocationWhenTheSavepointCompletes() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        api.on("POST", "/jobs/orders/savepoints", 202, "{\"request-id\":\"sp-1\"}")
                .on("GET", STATUS, () -> new FakeCoordinator.Answer(200, polls.incrementAndGet() < 3
                        ? "{\"status\":{\"id\":\"IN_PROGRESS\"},\"stage\":\"TRIGGERED\","
                                + "\"checkpoint_type\":\"SAVEPOINT\",\"checkpoint_id\":9}"
                        : "{\"status\":{\"id\":\"COMPLETED\"},\"operation\":{\"location\":"
                                + "\"s3://b/sp\"},\"request_id\":\"sp-1\",\"stage\":\"COMPLETED\","
                                + "\"checkpoint_type\":\"SAVEPOINT\",\"checkpoint_id\":9,\"location\":\"s3://b/sp\","
                                + "\"failure_reason\":null,\"failure_message\":null,\"timestamp\":1,"
                                + "\"a_field_of_a_later_release\":true}"))
                .on("GET", "/jobs/orders/checkpoints/9", 200, "{\"id\":9,\"status\":\"IN_PROGRESS\","
                        + "\"num_subtasks\":4,\"num_acknowledged_subtasks\":3}");
        List<String> progress = new ArrayList<>();

        SavepointOutcome outcome = client.triggerSavepoint("orders", CairnClient.body("targetDirectory", "s3://b"))
                .thenCompose(id -> client.awaitOutcome("orders", id, Duration.ofSeconds(10), Duration.ofMillis(10),
                        (checkpoint, acked, subtasks) -> progress.add(checkpoint + ":" + acked + "/" + subtasks)))
                .get(20, TimeUnit.SECONDS);

        assertThat(outcome).isEqualTo(new SavepointOutcome("orders", "sp-1", 9, "SAVEPOINT", "s3://b/sp"));
        assertThat(progress).contains("9:3/4");
        FakeCoordinator.Call post = api.calls().get(0);
        assertThat(post.body()).isEqualTo("{\"targetDirectory\":\"s3://b\"}");
        assertThat(post.authorization()).isEqualTo("Bearer " + TOKEN);
    }

    @Test
    void shouldFailWithTheAbortReasonWhenTheSavepointFails() {
        api.on("POST", "/jobs/orders/savepoints", 202, "{\"request-id\":\"sp-1\"}")
                .on("GET", STATUS, 200, "{\"status\":{\"id\":\"COMPLETED\"},\"stage\":\"FAILED\",\"checkpoint_id\":3,"
                        + "\"failure_reason\":\"CHECKPOINT_EXPIRED\",\"failure_message\":\"Checkpoint 3 expired\"}");

        assertThatThrownBy(() -> client.savepoint("orders", null).get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RequestFailedException.class)
                .hasMessage("Checkpoint 3 expired")
                .satisfies(e -> assertThat(((RequestFailedException) e).reason()).isEqualTo("CHECKPOINT_EXPIRED"));
        assertThat(api.calls().get(0).body()).isEqualTo("{}");
    }

    @Test
    void shouldFailWithATimeoutWhenNoOutcomeComesInTime() {
        api.on("GET", STATUS, 404, "{\"error\":\"unknown request\"}");

        assertThatThrownBy(() -> client.awaitOutcome("orders", "sp-1", Duration.ofMillis(100), Duration.ofMillis(10),
                CairnClient.Progress.NONE).get(20, TimeUnit.SECONDS))
                .cause().isInstanceOf(TimeoutException.class).hasMessageContaining("no outcome of request sp-1");
    }

    @Test
    void shouldNameTheApisErrorAndTheTokenWhenACallIsRefused() {
        api.on("POST", "/jobs/orders/stop", 401, "{\"error\":\"this request needs a token\"}");
        CairnClient anonymous = new CairnClient(api.uri(), null, Duration.ofSeconds(5));

        assertThatThrownBy(() -> anonymous.stopWithSavepoint("orders", null, true).get(20, TimeUnit.SECONDS))
                .cause().isInstanceOf(RestException.class)
                .hasMessageContaining("POST /jobs/orders/stop was answered 401: this request needs a token")
                .hasMessageContaining("give a bearer token");
        assertThat(api.calls().get(0).body()).isEqualTo("{\"drain\":true}");
    }

    @Test
    void shouldFailNamingTheApiWhenItCannotBeReached() {
        CairnClient nowhere = new CairnClient(URI.create("http://127.0.0.1:1"), null, Duration.ofSeconds(2));

        assertThatThrownBy(() -> nowhere.jobs().get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(RestException.class)
                .hasMessageContaining("cannot reach the REST API at http://127.0.0.1:1 (GET /jobs)");
    }

    @Test
    void shouldReadJobsAndCheckpointStatisticsIgnoringFieldsItDoesNotKnow() throws Exception {
        api.on("GET", "/jobs", 200, "{\"jobs\":[{\"id\":\"orders\",\"status\":\"RUNNING\",\"pending_checkpoints\":1,"
                + "\"latest_completed_id\":11,\"counts\":{\"triggered\":12,\"in_progress\":1,\"completed\":11,"
                + "\"failed\":0},\"last_checkpoint\":null,\"new\":1}],\"unreachable\":[\"10.0.0.2:8081\"]}")
                .on("GET", "/jobs/a%20b/checkpoints", 200, "{\"counts\":{\"triggered\":2,\"in_progress\":0,"
                        + "\"completed\":1,\"failed\":1},\"latest\":{\"completed\":{\"id\":1,\"status\":\"COMPLETED\","
                        + "\"checkpoint_type\":\"CHECKPOINT\",\"external_path\":\"file:///c/chk-1\"},"
                        + "\"savepoint\":null,\"failed\":null},\"pending\":[],"
                        + "\"history\":[{\"id\":2,\"status\":\"FAILED\",\"failure_reason\":\"CHECKPOINT_EXPIRED\"},"
                        + "{\"id\":1,\"status\":\"COMPLETED\"}]}");

        JobOverview.Listing jobs = client.jobs().get(20, TimeUnit.SECONDS);
        Checkpoints stats = client.checkpoints("a b").get(20, TimeUnit.SECONDS);

        assertThat(jobs.jobs()).singleElement().satisfies(job -> {
            assertThat(job.id()).isEqualTo("orders");
            assertThat(job.latestCompletedId()).isEqualTo(11L);
            assertThat(job.counts().completed()).isEqualTo(11);
        });
        assertThat(jobs.unreachable()).containsExactly("10.0.0.2:8081");
        assertThat(stats.counts().failed()).isEqualTo(1);
        assertThat(stats.latestCompleted().externalPath()).isEqualTo("file:///c/chk-1");
        assertThat(stats.history()).extracting(Checkpoints.Summary::id).containsExactly(2L, 1L);
    }

    @Test
    void shouldRefuseABaseUrlThatIsNotHttp() {
        assertThatThrownBy(() -> CairnClient.baseUrl("coordinator:8081"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'coordinator:8081' is not a URL of the REST API");
        assertThat(CairnClient.baseUrl(" https://c:8081 ")).isEqualTo(URI.create("https://c:8081"));
    }
}
