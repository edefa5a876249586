package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The replay campaign (profile {@code faults}): what someone who can read and write {@code cairn.requests} and
 * {@code cairn.acks}, but holds no key, achieves by writing signed records again. A live run
 * ({@link ReplayLiveRun}) produces every kind of request and sidecar record on a coordinator process in the default
 * signed mode; every record of both topics is copied as bytes ({@link RawRecords}) and, once the state has moved on,
 * written again unchanged: first within the freshness window (the default, five minutes), then after it, by the same
 * coordinator restarted with {@code --request-freshness-ms=}{@value #SHORT_WINDOW_MS}. Each time, the job's REST
 * views (spec and status, checkpoint counts and history, restore point, savepoints) must be what they were, the
 * removed job must stay removed, every copy must be answered in the journal by exactly one refusal that says why
 * ({@link ReplayVerdicts}), found by the input headers of the journal records ({@link JournalAnswers}), and no
 * refusal may hand a state of a kept savepoint or of the restore point out for deletion. The class takes 1 to 2.5
 * minutes, about half of it starting Kafka and the coordinator.
 */
class ReplayCampaignFaultIT {

    static final long SHORT_WINDOW_MS = 3_000;
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Set<String> KINDS = Set.of("JobSpec", "TriggerRequest", "JobStatusChange", "RestoreJob",
            "DisposeSavepoint", "RescaleJob", "RemoveJob", "TaskStarted", "CheckpointAcknowledged",
            "CheckpointDeclined", "TaskFinished", "ParticipantAcknowledged", "ParticipantDeclined", "RestoreFailed");

    /** What the REST API serves of the two jobs: the job's views and savepoints, the removed job's answer. */
    private record Served(RestSnapshot job, JsonNode savepoints, CoordinatorProcess.HttpAnswer removed) {

        static Optional<Served> take(CoordinatorProcess coordinator) {
            Optional<RestSnapshot> job = RestSnapshot.take(coordinator, List.of(ReplayLiveRun.JOB));
            Optional<JsonNode> savepoints = RestSnapshot.get(coordinator, "/jobs/" + ReplayLiveRun.JOB
                    + "/savepoints");
            CoordinatorProcess.HttpAnswer removed = coordinator.get("/jobs/" + ReplayLiveRun.REMOVED);
            return job.isPresent() && savepoints.isPresent() && removed.status() == 404
                    ? Optional.of(new Served(job.get(), savepoints.get(), removed)) : Optional.empty();
        }

        /** The ids of the savepoints the job keeps and of its restore point: no worker may delete their states. */
        Set<Long> kept() {
            Set<Long> ids = new TreeSet<>();
            savepoints.path("savepoints").forEach(s -> ids.add(s.get("id").asLong()));
            ids.add(job.restorePointId(ReplayLiveRun.JOB));
            return ids;
        }

        List<String> differencesFrom(Served before) {
            List<String> differences = new ArrayList<>(job.differencesFrom(before.job, Set.of()));
            if (!savepoints.equals(before.savepoints)) {
                differences.add("GET /jobs/" + ReplayLiveRun.JOB + "/savepoints: was " + before.savepoints + ", is "
                        + savepoints);
            }
            if (!removed.body().equals(before.removed.body())) {
                differences.add("GET /jobs/" + ReplayLiveRun.REMOVED + ": was " + before.removed.body() + ", is "
                        + removed.body());
            }
            return differences;
        }
    }

    @Test
    void shouldChangeNothingAndJournalWhyForEveryRecordWrittenAgainWithinAndAfterTheFreshnessWindow() {
        Timings took = new Timings();
        try (FaultCluster cluster = FaultCluster.start("replay", 1, 1, 0)) {
            CoordinatorProcess coordinator = cluster.coordinators.get(0);
            String bootstrap = cluster.brokers.bootstrapServers();
            took.lap("start");
            List<Long> savepoints = ReplayLiveRun.run(cluster);
            List<RawRecords.Captured> captured = RawRecords.capture(bootstrap, List.of(cluster.topics.requests(),
                    cluster.topics.acks()));
            Set<String> kinds = new TreeSet<>();
            captured.forEach(r -> kinds.add(ReplayVerdicts.eventOf(r, cluster.topics.requests()).getClass()
                    .getSimpleName()));
            assertThat(kinds).as("the kinds of record the live run produced").containsAll(KINDS);
            Served before = awaitServed(coordinator);
            took.lap("live run");

            try (JournalAnswers journal = new JournalAnswers(bootstrap, cluster.topics.journal())) {
                ReplayVerdicts within = replay(cluster, journal, captured, false);
                List<String> withinChanged = awaitServed(coordinator).differencesFrom(before);
                took.lap("within the window");

                coordinator.restartWith(List.of("--request-freshness-ms=" + SHORT_WINDOW_MS));
                List<String> restartChanged = awaitServed(coordinator).differencesFrom(before);
                long newestRequest = captured.stream().filter(r -> r.topic().equals(cluster.topics.requests()))
                        .mapToLong(r -> requestedAtMs(ReplayVerdicts.eventOf(r, cluster.topics.requests())))
                        .max().orElseThrow();
                Awaitility.await("the freshness window passed").atMost(WAIT).pollInterval(Duration.ofMillis(100))
                        .until(() -> System.currentTimeMillis() > newestRequest + SHORT_WINDOW_MS);
                took.lap("restart");
                ReplayVerdicts after = replay(cluster, journal, captured, true);
                List<String> afterChanged = awaitServed(coordinator).differencesFrom(before);
                took.lap("after the window");

                report(captured.size(), savepoints, within, after, took);
                assertThat(within.problems()).as("answers within the window").isEmpty();
                assertThat(withinChanged).as("views changed by the copies written within the window").isEmpty();
                assertThat(restartChanged).as("views changed by the restart").isEmpty();
                assertThat(after.problems()).as("answers after the window").isEmpty();
                assertThat(afterChanged).as("views changed by the copies written after the window").isEmpty();
                assertThat(within.handedOut()).as("states handed out for deletion of kept points %s", before.kept())
                        .doesNotContainAnyElementsOf(before.kept());
                assertThat(after.handedOut()).as("states handed out for deletion of kept points %s", before.kept())
                        .doesNotContainAnyElementsOf(before.kept());
            }
        }
    }

    /** How long each part of the campaign took, for its report. */
    private static final class Timings {

        private final Map<String, Duration> laps = new LinkedHashMap<>();
        private final long startedAt = System.nanoTime();
        private long lastAt = startedAt;

        void lap(String part) {
            long now = System.nanoTime();
            laps.put(part, Duration.ofNanos(now - lastAt));
            lastAt = now;
        }

        @Override
        public String toString() {
            return String.format("%.1f s in all (", (System.nanoTime() - startedAt) / 1e9) + String.join(", ",
                    laps.entrySet().stream().map(e -> String.format("%s %.1f s", e.getKey(),
                            e.getValue().toMillis() / 1000.0)).toList()) + ")";
        }
    }

    /** Writes every captured record again and waits until the journal answered each copy; judges the answers. */
    private static ReplayVerdicts replay(FaultCluster cluster, JournalAnswers journal,
            List<RawRecords.Captured> captured, boolean stale) {
        List<RawRecords.Copy> copies = RawRecords.writeAgain(cluster.brokers.bootstrapServers(), captured);
        try {
            Awaitility.await("every copy answered in the journal").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        journal.readToEnd();
                        return copies.stream().allMatch(c -> !answers(journal, c).isEmpty());
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // the verdicts name every copy that got no answer
        }
        ReplayVerdicts verdicts = new ReplayVerdicts(cluster.topics.requests());
        copies.forEach(c -> verdicts.judge(c, answers(journal, c), stale));
        return verdicts;
    }

    private static List<Object> answers(JournalAnswers journal, RawRecords.Copy copy) {
        return journal.on(copy.original().topic(), copy.original().partition(), copy.offset());
    }

    /** The views once both jobs are served (after a restart, once the coordinator serves again). */
    private static Served awaitServed(CoordinatorProcess coordinator) {
        return Awaitility.await("the views served").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> Served.take(coordinator).orElse(null), s -> s != null);
    }

    private static long requestedAtMs(SpecificRecord request) {
        return (Long) request.get(request.getSchema().getField("timestampMs").pos());
    }

    private static void report(int records, List<Long> savepoints, ReplayVerdicts within, ReplayVerdicts after,
            Timings took) {
        System.out.printf("[faults] replay: %d records of the requests and acks topics written again twice by a "
                + "producer without a key (savepoints %s, the first one disposed of); %s%n", records, savepoints,
                took);
        System.out.println("[faults] replay: within the freshness window (300000 ms):");
        within.table("[faults] replay:   ").forEach(System.out::println);
        System.out.println("[faults] replay: after the window (coordinator restarted with request.freshness.ms="
                + SHORT_WINDOW_MS + "):");
        after.table("[faults] replay:   ").forEach(System.out::println);
        System.out.printf("[faults] replay: acks whose state was handed out for clean-up again: checkpoints %s "
                + "(within), %s (after)%n", within.handedOut(), after.handedOut());
        within.problems().forEach(p -> System.out.println("[faults] replay: WITHIN THE WINDOW " + p));
        after.problems().forEach(p -> System.out.println("[faults] replay: AFTER THE WINDOW " + p));
    }
}
