package dev.cairn.client.audit;

import static dev.cairn.core.audit.AuditJournals.ORDERS;
import static dev.cairn.core.audit.AuditJournals.entries;
import static dev.cairn.core.audit.AuditJournals.indexOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.client.Json;
import dev.cairn.core.audit.AuditJournals;
import dev.cairn.core.audit.JournalEntry;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.audit.ViewDiff;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.views.ApiViews;
import dev.cairn.core.views.StateViews;
import dev.cairn.events.CheckpointTriggered;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** State as of a point of the journal, the replayed REST views, and their comparison with live ones. */
class ReplayAndViewsTest {

    private final List<SpecificRecord> events = AuditJournals.twoJobs();
    private final List<JournalEntry> journal = entries(events);

    @Test
    void shouldShowTheJobAsItWasWhenItsThirdCheckpointWasTriggered() {
        int third = indexOf(events, CheckpointTriggered.class, ORDERS, 3);
        Replay then = replay(ORDERS, journal.subList(0, third + 1));

        ApiViews.CheckpointStats stats = StateViews.checkpoints(then.state(), ORDERS).orElseThrow();

        assertThat(then.last().offset()).isEqualTo(third);
        assertThat(stats.pending()).extracting(c -> c.identity().id()).containsExactly(3L);
        assertThat(stats.history()).extracting(c -> c.identity().id(), c -> c.identity().status()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(2L, "FAILED"),
                org.assertj.core.groups.Tuple.tuple(1L, "COMPLETED"));
        assertThat(stats.counts().completed()).isEqualTo(1);
        assertThat(StateViews.job(then.state(), ORDERS).orElseThrow().schedule().nextCheckpointId()).isEqualTo(4);
    }

    @Test
    void shouldReplayOnlyTheJobAskedAndSkipRecordsThatDoNotDecode() {
        Replay replay = new Replay(CoordinatorSettings.DEFAULTS, ORDERS);
        journal.forEach(replay::accept);
        replay.accept(JournalEntry.undecodable(0, journal.size(), 0, ORDERS, "corrupt"));

        assertThat(replay.state().jobIds()).containsExactly(ORDERS);
        assertThat(replay.skipped()).isEqualTo(1);
        assertThat(StateViews.latestCompleted(replay.state(), ORDERS).orElseThrow().checkpoint().id()).isEqualTo(3);
        assertThat(StateViews.job(replay.state(), "nobody")).isEmpty();
    }

    @Test
    void shouldFindNoDifferenceWhenTheLiveViewsAreTheReplayedOnes() {
        Replay replay = replay(null, journal);

        assertThat(JournalVerifier.verify(replay.state(), live(replay, Map.of()))).isEmpty();
    }

    @Test
    void shouldNameEachDifferenceOfTheLiveViews() throws Exception {
        Replay replay = replay(null, journal);
        ObjectNode checkpoints = (ObjectNode) tree(StateViews.checkpoints(replay.state(), ORDERS).orElseThrow());
        ((ObjectNode) checkpoints.get("counts")).put("completed", 4);
        ((ObjectNode) checkpoints.get("history").get(1)).put("status", "COMPLETED");

        List<JournalVerifier.Difference> differences = JournalVerifier.verify(replay.state(), live(replay, Map.of(
                "/jobs/orders/checkpoints", new JournalVerifier.LiveSource.Answer(200, checkpoints.toString()),
                "/jobs/billing", new JournalVerifier.LiveSource.Answer(404, "{\"error\": \"no such job\"}"))));

        assertThat(differences).extracting(JournalVerifier.Difference::describe).containsExactly(
                "job billing: job journal=(present) live=HTTP 404 {\"error\": \"no such job\"}",
                "job orders: checkpoints counts.completed journal=2 live=4",
                "job orders: checkpoints history[id=2].status journal=\"FAILED\" live=\"COMPLETED\"");
    }

    @Test
    void shouldNameALiveJobTheJournalNeverRegisteredAndAnUnreachableInstance() {
        Replay replay = replay(null, journal);
        String listed = replay.state().jobIds().stream().map(id -> "{\"id\": \"" + id + "\"}")
                .collect(java.util.stream.Collectors.joining(", "));

        List<JournalVerifier.Difference> differences = JournalVerifier.verify(replay.state(), live(replay, Map.of(
                "/jobs", new JournalVerifier.LiveSource.Answer(200, "{\"jobs\": [" + listed + ", {\"id\": \"ghost\"}],"
                        + " \"unreachable\": [{\"instance\": \"10.0.0.2:8081\", \"reason\": \"timed out\"}]}"))));

        assertThat(differences).extracting(JournalVerifier.Difference::describe).containsExactly(
                "job ghost: jobs journal=(absent) live=(present)",
                "job *: jobs unreachable journal=[] live=[{\"instance\":\"10.0.0.2:8081\",\"reason\":\"timed out\"}]");
    }

    @Test
    void shouldNameAJobListingThatFailed() {
        Replay replay = replay(null, journal);

        List<JournalVerifier.Difference> differences = JournalVerifier.verify(replay.state(), live(replay, Map.of(
                "/jobs", new JournalVerifier.LiveSource.Answer(503, "{\"error\": \"rebalancing\"}"))));

        assertThat(differences).extracting(JournalVerifier.Difference::describe)
                .containsExactly("job *: jobs journal=(list) live=HTTP 503 {\"error\": \"rebalancing\"}");
    }

    @Test
    void shouldNameACheckpointThatOnlyOneSideHas() throws Exception {
        JsonNode journal = Json.MAPPER.readTree("{\"history\": [{\"id\": 3, \"status\": \"COMPLETED\"}, {\"id\": 2}]}");
        JsonNode live = Json.MAPPER.readTree("{\"history\": [{\"id\": 2}], \"extra\": 1.0}");

        assertThat(ViewDiff.of(journal, live)).containsExactly(
                new ViewDiff.Difference("history[id=3]", "{\"id\":3,\"status\":\"COMPLETED\"}", "(absent)"),
                new ViewDiff.Difference("extra", "(absent)", "1.0"));
        assertThat(ViewDiff.of(Json.MAPPER.readTree("{\"n\": 1}"), Json.MAPPER.readTree("{\"n\": 1.0}"))).isEmpty();
    }

    private static Replay replay(String jobId, List<JournalEntry> entries) {
        Replay replay = new Replay(CoordinatorSettings.DEFAULTS, jobId);
        entries.forEach(replay::accept);
        return replay;
    }

    /** The replayed views as a live API would answer them, with some answers replaced. */
    private static JournalVerifier.LiveSource live(Replay replay,
            Map<String, JournalVerifier.LiveSource.Answer> overrides) {
        Map<String, JournalVerifier.LiveSource.Answer> answers = new HashMap<>();
        for (String jobId : replay.state().jobIds()) {
            answers.put("/jobs/" + jobId, answer(StateViews.job(replay.state(), jobId).orElseThrow()));
            answers.put("/jobs/" + jobId + "/checkpoints",
                    answer(StateViews.checkpoints(replay.state(), jobId).orElseThrow()));
            answers.put("/jobs/" + jobId + "/checkpoints/latest-completed", StateViews
                    .latestCompleted(replay.state(), jobId).map(ReplayAndViewsTest::answer)
                    .orElse(new JournalVerifier.LiveSource.Answer(404, "{}")));
        }
        String listed = replay.state().jobIds().stream().map(id -> "{\"id\": \"" + id + "\"}")
                .collect(java.util.stream.Collectors.joining(", "));
        answers.put("/jobs", new JournalVerifier.LiveSource.Answer(200,
                "{\"jobs\": [" + listed + "], \"unreachable\": []}"));
        answers.putAll(overrides);
        return path -> answers.getOrDefault(path, new JournalVerifier.LiveSource.Answer(404, "{}"));
    }

    private static JournalVerifier.LiveSource.Answer answer(Object view) {
        return new JournalVerifier.LiveSource.Answer(200, new String(Json.bytes(view), StandardCharsets.UTF_8));
    }

    private static JsonNode tree(Object view) throws Exception {
        return Json.MAPPER.readTree(Json.bytes(view));
    }
}
