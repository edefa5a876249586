package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.rest.HttpHeader;
import org.apache.flink.runtime.rest.RestClient;
import org.apache.flink.runtime.rest.handler.async.TriggerResponse;
import org.apache.flink.runtime.rest.messages.EmptyRequestBody;
import org.apache.flink.runtime.rest.messages.EmptyResponseBody;
import org.apache.flink.runtime.rest.messages.JobCancellationHeaders;
import org.apache.flink.runtime.rest.messages.JobCancellationMessageParameters;
import org.apache.flink.runtime.rest.messages.MessageHeaders;
import org.apache.flink.runtime.rest.messages.MessageParameters;
import org.apache.flink.runtime.rest.messages.RequestBody;
import org.apache.flink.runtime.rest.messages.ResponseBody;
import org.apache.flink.runtime.rest.messages.TerminationModeQueryParameter.TerminationMode;
import org.apache.flink.runtime.rest.messages.TriggerId;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointTriggerHeaders;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointTriggerMessageParameters;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointTriggerRequestBody;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointingStatistics;
import org.apache.flink.runtime.rest.messages.job.savepoints.SavepointTriggerHeaders;
import org.apache.flink.runtime.rest.messages.job.savepoints.SavepointTriggerMessageParameters;
import org.apache.flink.runtime.rest.messages.job.savepoints.SavepointTriggerRequestBody;
import org.apache.flink.runtime.rest.messages.job.savepoints.stop.StopWithSavepointRequestBody;
import org.apache.flink.runtime.rest.messages.job.savepoints.stop.StopWithSavepointTriggerHeaders;
import org.apache.flink.runtime.rest.messages.util.stats.StatsSummaryDto;
import org.apache.flink.runtime.rest.util.RestMapperUtils;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Flink's own REST client ({@code flink-runtime}'s {@link RestClient}, the one {@code flink savepoint}, {@code flink
 * stop} and {@code flink cancel} use) against a coordinator on a real broker, in secured mode: each request is
 * serialized by Flink's message classes and sent where Flink sends it ({@code /v1/...}), with the REST token as a
 * custom header; each answer is read by Flink's response classes, and what the coordinator made of the request is
 * checked in its journal. The checkpoint statistics are read by Flink's mapper into Flink's counts, summary and
 * restored-checkpoint classes.
 */
@ExtendWith(KafkaClusterExtension.class)
class FlinkRestClientIT {

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    private static ExecutorService executor;
    private static RestClient flink;

    @BeforeAll
    static void startFlinksClient() throws Exception {
        executor = Executors.newSingleThreadExecutor();
        flink = new RestClient(new Configuration(), executor);
    }

    @AfterAll
    static void stopFlinksClient() {
        flink.shutdown(java.time.Duration.ofSeconds(5));
        executor.shutdownNow();
    }

    @Test
    void shouldAnswerFlinksCheckpointSavepointStopAndCancelRequestsAsFlinksClientReadsThem() throws Exception {
        JobID jobId = new JobID();
        String job = jobId.toHexString();
        cairn.register(Events.jobSpec(job).setTasks(List.of(Events.task("source", 1)))
                .setConfig(Events.config(600_000, 60_000).setTolerableFailures(100).build()).build());
        cairn.startTask(job, "source", 0, job + "/source/0/1");
        cairn.rest().awaitJson("/jobs/" + job, node -> node.get("state").asText().equals("RUNNING"));

        TriggerId checkpointId = new TriggerId();
        CheckpointTriggerMessageParameters checkpointParameters = CheckpointTriggerHeaders.getInstance()
                .getUnresolvedMessageParameters();
        checkpointParameters.jobID.resolve(jobId);
        TriggerResponse checkpoint = send(CheckpointTriggerHeaders.getInstance(), checkpointParameters,
                new CheckpointTriggerRequestBody(org.apache.flink.core.execution.CheckpointType.FULL, checkpointId));

        assertThat(checkpoint.getTriggerId()).isEqualTo(checkpointId);
        TriggerRequest checkpointRequest = cairn.awaitNextJournal(TriggerRequest.class,
                r -> r.getRequestId().equals(checkpointId.toHexString()));
        assertThat(checkpointRequest.getType()).isEqualTo(CheckpointType.CHECKPOINT);
        assertThat(checkpointRequest.getOptions().getBackupType()).isEqualTo(BackupType.FULL);
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job));
        cairn.ack(job, triggered.getCheckpointId(), "source", 0, job + "/source/0/1");
        cairn.awaitNextControl(CheckpointCompleted.class, c -> c.getJobId().equals(job));

        SavepointTriggerMessageParameters savepointParameters = SavepointTriggerHeaders.getInstance()
                .getUnresolvedMessageParameters();
        savepointParameters.jobID.resolve(jobId);
        TriggerResponse savepoint = send(SavepointTriggerHeaders.getInstance(), savepointParameters,
                new SavepointTriggerRequestBody("file:///savepoints/" + job, false, SavepointFormatType.NATIVE, null));

        TriggerRequest savepointRequest = cairn.awaitNextJournal(TriggerRequest.class,
                r -> r.getRequestId().equals(savepoint.getTriggerId().toHexString()));
        assertThat(savepointRequest.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(savepointRequest.getTargetLocation()).isEqualTo("file:///savepoints/" + job);
        assertThat(savepointRequest.getOptions().getSavepointFormat()).isEqualTo(SavepointFormat.NATIVE);

        TriggerId stopId = new TriggerId();
        SavepointTriggerMessageParameters stopParameters = StopWithSavepointTriggerHeaders.getInstance()
                .getUnresolvedMessageParameters();
        stopParameters.jobID.resolve(jobId);
        TriggerResponse stop = send(StopWithSavepointTriggerHeaders.getInstance(), stopParameters,
                new StopWithSavepointRequestBody("file:///savepoints/final-" + job, true,
                        SavepointFormatType.CANONICAL, stopId));

        assertThat(stop.getTriggerId()).isEqualTo(stopId);
        TriggerRequest stopRequest = cairn.awaitNextJournal(TriggerRequest.class,
                r -> r.getRequestId().equals(stopId.toHexString()));
        assertThat(stopRequest.getPostCheckpointAction()).isEqualTo(PostCheckpointAction.TERMINATE);

        JobCancellationMessageParameters cancelParameters = JobCancellationHeaders.getInstance()
                .getUnresolvedMessageParameters().resolveJobId(jobId).resolveTerminationMode(TerminationMode.CANCEL);
        EmptyResponseBody cancelled = send(JobCancellationHeaders.getInstance(), cancelParameters,
                EmptyRequestBody.getInstance());

        assertThat(cancelled).isNotNull();
        cairn.awaitNextJournal(JobStatusChange.class, c -> c.getJobId().equals(job)
                && c.getStatus() == JobStatus.CANCELED);

        HttpResponse<String> restore = cairn.rest().post("/v1/jobs/" + job + "/restore", "{}");
        assertThat(restore.statusCode()).as(restore.body()).isEqualTo(202);
        cairn.awaitNextJournal(JobRestored.class, r -> r.getJobId().equals(job));
        String statistics = cairn.rest().awaitBody("/v1/jobs/" + job + "/checkpoints",
                response -> response.body().contains("\"restore_timestamp\""));

        ObjectMapper flinksMapper = RestMapperUtils.getFlexibleObjectMapper();
        JsonNode tree = flinksMapper.readTree(statistics);
        CheckpointingStatistics.Counts counts = flinksMapper.treeToValue(tree.get("counts"),
                CheckpointingStatistics.Counts.class);
        assertThat(counts.getNumberRestoredCheckpoints()).isEqualTo(1);
        assertThat(counts.getNumberCompletedCheckpoints()).isEqualTo(1);
        assertThat(counts.getTotalNumberCheckpoints()).isEqualTo(counts.getNumberInProgressCheckpoints()
                + counts.getNumberCompletedCheckpoints() + counts.getNumberFailedCheckpoints());
        StatsSummaryDto duration = flinksMapper.treeToValue(tree.get("summary").get("end_to_end_duration"),
                StatsSummaryDto.class);
        assertThat(duration.getMaximum()).isGreaterThanOrEqualTo(duration.getMinimum());
        assertThat(duration.getP999()).isEqualTo(duration.getMaximum());
        CheckpointingStatistics.RestoredCheckpointStatistics restored = flinksMapper.treeToValue(
                tree.get("latest").get("restored"), CheckpointingStatistics.RestoredCheckpointStatistics.class);
        assertThat(restored.getId()).isEqualTo(triggered.getCheckpointId());
        assertThat(restored.isSavepoint()).isFalse();
        assertThat(restored.getExternalPath()).endsWith("/chk-" + triggered.getCheckpointId());
        assertThat(restored.getRestoreTimestamp()).isPositive();
    }

    /** Sends a request as Flink's client does, with the REST token as a custom header of {@code headers}. */
    private static <R extends RequestBody, P extends ResponseBody, M extends MessageParameters> P send(
            MessageHeaders<R, P, M> headers, M parameters, R body) throws Exception {
        URI uri = cairn.restUri();
        return flink.sendRequest(uri.getHost(), uri.getPort(), withToken(headers), parameters, body)
                .get(CoordinatorTestBed.WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @SuppressWarnings("unchecked")
    private static <R extends RequestBody, P extends ResponseBody, M extends MessageParameters> MessageHeaders<R, P, M>
            withToken(MessageHeaders<R, P, M> headers) {
        HttpHeader token = new HttpHeader("Authorization", "Bearer " + CoordinatorTestBed.REST_TOKEN);
        return (MessageHeaders<R, P, M>) Proxy.newProxyInstance(MessageHeaders.class.getClassLoader(),
                new Class<?>[] {MessageHeaders.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getCustomHeaders")) {
                        return List.of(token);
                    }
                    try {
                        return method.invoke(headers, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
