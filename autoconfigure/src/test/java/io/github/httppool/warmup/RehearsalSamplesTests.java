package io.github.httppool.warmup;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Samples of application types for the rehearsal's JSON round trips.
 */
class RehearsalSamplesTests {

	@Test
	void aRecordGetsAValueForEveryComponent() {
		Object sample = RehearsalSamples.sample(Invoice.class);
		assertThat(sample).isInstanceOfSatisfying(Invoice.class, (invoice) -> {
			assertThat(invoice.id()).isPositive();
			assertThat(invoice.number()).isEqualTo("rehearsal");
			assertThat(invoice.total()).isPositive();
			assertThat(invoice.paid()).isTrue();
			assertThat(invoice.issued()).isNotNull();
			assertThat(invoice.status()).isEqualTo(Status.OPEN);
			assertThat(invoice.customer()).isEqualTo(new Customer("rehearsal", Optional.of("rehearsal")));
			assertThat(invoice.lines()).singleElement().isInstanceOf(Line.class);
			assertThat(invoice.labels()).containsExactly("rehearsal");
			assertThat(invoice.attributes()).containsEntry("rehearsal", 42);
			assertThat(invoice.codes()).containsExactly(42);
		});
	}

	@Test
	void aBeanGetsAValueForEveryWritableProperty() {
		Object sample = RehearsalSamples.sample(Account.class);
		assertThat(sample).isInstanceOfSatisfying(Account.class, (account) -> {
			assertThat(account.getOwner()).isEqualTo("rehearsal");
			assertThat(account.getBalance()).isEqualTo(new BigDecimal("1234.56"));
			assertThat(account.getInvoices()).singleElement().isInstanceOf(Invoice.class);
		});
	}

	@Test
	void recursiveTypesEndAtALimitedDepth() {
		Object sample = RehearsalSamples.sample(Node.class);
		assertThat(sample).isInstanceOf(Node.class);
		int depth = 0;
		for (Node node = (Node) sample; node != null && !node.children().isEmpty(); node = node.children().get(0)) {
			depth++;
		}
		assertThat(depth).isBetween(1, 4);
	}

	@Test
	void aTypeThatCannotBeMadeHasNoSample() {
		assertThat(RehearsalSamples.sample(NoDefaultConstructor.class)).isNull();
		assertThat(RehearsalSamples.sample(Rejecting.class)).isNull();
		assertThat(RehearsalSamples.sample(Runnable.class)).isNull();
	}

	enum Status {

		OPEN, CLOSED

	}

	record Customer(String name, Optional<String> email) {
	}

	record Line(String product, int quantity, BigDecimal price) {
	}

	record Invoice(long id, String number, double total, boolean paid, Instant issued, Status status,
			Customer customer, List<Line> lines, Set<String> labels, Map<String, Integer> attributes, int[] codes) {
	}

	record Node(String name, List<Node> children) {
	}

	record Rejecting(String name) {

		Rejecting {
			throw new IllegalArgumentException(name);
		}

	}

	static class NoDefaultConstructor {

		NoDefaultConstructor(String name) {
		}

	}

	static class Account {

		private String owner;

		private BigDecimal balance;

		private List<Invoice> invoices;

		String getOwner() {
			return this.owner;
		}

		public void setOwner(String owner) {
			this.owner = owner;
		}

		BigDecimal getBalance() {
			return this.balance;
		}

		public void setBalance(BigDecimal balance) {
			this.balance = balance;
		}

		List<Invoice> getInvoices() {
			return this.invoices;
		}

		public void setInvoices(List<Invoice> invoices) {
			this.invoices = invoices;
		}

	}

}
