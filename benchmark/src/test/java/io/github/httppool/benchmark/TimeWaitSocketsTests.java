package io.github.httppool.benchmark;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The socket tables the benchmark's {@code TIME_WAIT} counts rest on, read for real loopback connections.
 */
class TimeWaitSocketsTests {

	@Test
	void anOpenConnectionIsInTheBeforeSnapshotAndItsClosingSideEndsInTimeWait() throws Exception {
		assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "needs Linux's /proc/net/tcp");
		try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			int port = server.getLocalPort();
			Socket client = new Socket(InetAddress.getLoopbackAddress(), port);
			try (Socket accepted = server.accept()) {
				Optional<Set<String>> before = TimeWaitSockets.allInvolvingPort(port);
				Optional<Set<String>> timeWaitBefore = TimeWaitSockets.involvingPort(port);

				assertThat(before).hasValueSatisfying((sockets) -> assertThat(sockets).hasSizeGreaterThanOrEqualTo(2));
				assertThat(timeWaitBefore).hasValueSatisfying((sockets) -> assertThat(sockets).isEmpty());

				client.close(); // the client closes first: its side goes to TIME_WAIT once the server closes too
				assertThat(accepted.getInputStream().read()).isEqualTo(-1);
			}
			Set<String> timeWait = awaitTimeWait(port);
			assertThat(timeWait).hasSize(1);
			assertThat(TimeWaitSockets.allInvolvingPort(port)).hasValueSatisfying(
					(sockets) -> assertThat(sockets).containsAll(timeWait));
		}
	}

	private static Set<String> awaitTimeWait(int port) throws InterruptedException {
		Set<String> sockets = Set.of();
		for (int i = 0; i < 50 && sockets.isEmpty(); i++) {
			sockets = TimeWaitSockets.involvingPort(port).orElseThrow();
			if (sockets.isEmpty()) {
				Thread.sleep(20);
			}
		}
		return sockets;
	}

}
