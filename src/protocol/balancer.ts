/**
 * Client-side balancing over several parser services, built on grpc-js's own
 * machinery (`@grpc/grpc-js/experimental`):
 *
 * - Name resolution is grpc-js's: `dns:///name:port` (every A/AAAA record),
 *   `ipv4:`/`ipv6:` address lists, and — for a list of host names, which
 *   grpc-js has no scheme for — `avap-hosts:a:1,b:2`, which runs grpc-js's DNS
 *   resolver for each host and hands the union of the addresses on.
 * - Balancing is grpc-js's `round_robin` over every resolved address, under a
 *   policy (`avap_health_checked`) that health-checks each connection.
 *   grpc-js 1.14 implements no client-side health checking (the
 *   `healthCheckConfig` of gRFC A17), so this policy wraps each subchannel and
 *   polls the standard `grpc.health.v1.Health/Check` for the parser service
 *   over that very connection; an endpoint that answers anything but SERVING,
 *   or does not answer within the check timeout, is marked unhealthy and
 *   `round_robin` routes around it until a later check passes. Polling (not
 *   the streaming Watch) keeps the service's graceful drain short: a Watch
 *   stream would hold its shutdown open until the grace period ran out.
 * - A health check only proves that the process answers health checks: a
 *   replica whose Validate hangs still says SERVING. So an endpoint on which
 *   a call ran out of its deadline is ejected at once (no further calls are
 *   routed to it), and while it is out its checks are a small Validate call
 *   over its own connection instead of the health check: it comes back when
 *   the parser itself answers (a verdict, or any other answer — "overloaded"
 *   included), or when its connection is replaced.
 */
import * as grpc from '@grpc/grpc-js';
import { experimental } from '@grpc/grpc-js';
import { healthClientConstructor, type HealthClient } from './health';
import { parserClientConstructor, type ParserServiceClient } from './parserProto';
import { HOST_LIST_SCHEME } from './parserUrl';

type SubchannelInterface = experimental.SubchannelInterface;
type ChannelControlHelper = experimental.ChannelControlHelper;
type TypedLoadBalancingConfig = experimental.TypedLoadBalancingConfig;
type Endpoint = experimental.Endpoint;
type StatusOr<T> = experimental.StatusOr<T>;

const HEALTH_CHECKED_POLICY = 'avap_health_checked';

/** The Validate call that checks an ejected endpoint: a tiny program every parser version accepts. */
const ENDPOINT_PROBE_SOURCE = 'addVar(probe, 1)\n';
const ENDPOINT_PROBE_FILENAME = '<endpoint-probe>';

/** Statuses that mean the service never answered the call (anything else is an answer, even a refusal). */
const NO_ANSWER = new Set([grpc.status.DEADLINE_EXCEEDED, grpc.status.UNAVAILABLE, grpc.status.CANCELLED]);

export interface HealthCheckSettings {
  /** The service name asked about (the parser's, `avap.parser.v1.AvapParser`). */
  serviceName: string;
  /** Time between checks of one connection. */
  intervalMs: number;
  /** A check that takes longer counts as failed. */
  timeoutMs: number;
}

class HealthCheckedConfig implements TypedLoadBalancingConfig {
  constructor(
    readonly settings: HealthCheckSettings,
    readonly child: TypedLoadBalancingConfig,
  ) {}

  getLoadBalancerName(): string {
    return HEALTH_CHECKED_POLICY;
  }

  toJsonObject(): object {
    return { [HEALTH_CHECKED_POLICY]: { ...this.settings, childPolicy: [this.child.toJsonObject()] } };
  }

  static createFromJson(obj: unknown): HealthCheckedConfig {
    const raw = (obj ?? {}) as Partial<HealthCheckSettings> & { childPolicy?: object[] };
    if (typeof raw.serviceName !== 'string') throw new Error(`${HEALTH_CHECKED_POLICY}: serviceName must be a string`);
    const positive = (value: unknown, name: string) => {
      if (typeof value !== 'number' || !(value > 0))
        throw new Error(`${HEALTH_CHECKED_POLICY}: ${name} must be a positive number`);
      return value;
    };
    const child = experimental.selectLbConfigFromList((raw.childPolicy ?? [{ round_robin: {} }]) as never[]);
    if (!child) throw new Error(`${HEALTH_CHECKED_POLICY}: no usable childPolicy`);
    return new HealthCheckedConfig(
      {
        serviceName: raw.serviceName,
        intervalMs: positive(raw.intervalMs, 'intervalMs'),
        timeoutMs: positive(raw.timeoutMs, 'timeoutMs'),
      },
      child,
    );
  }
}

/**
 * A subchannel that polls the health service over its own connection while it
 * is READY, and leaves the rotation when a call on it runs out of its deadline
 * (it then polls with a Validate call until the parser answers again).
 */
class HealthCheckedSubchannel extends experimental.BaseSubchannelWrapper {
  private client: HealthClient | undefined;
  private parser: ParserServiceClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private call: grpc.ClientUnaryCall | undefined;
  private stopped = false;
  /** Out of the rotation since a call's deadline passed, until a Validate probe is answered. */
  private ejected = false;
  private readonly onState = (
    _s: SubchannelInterface,
    _previous: grpc.connectivityState,
    next: grpc.connectivityState,
  ) => {
    if (next === grpc.connectivityState.READY) {
      this.schedule(0);
    } else {
      this.cancel();
      // A fresh connection starts trusted; its first check follows at once.
      this.ejected = false;
      this.setHealthy(true);
    }
  };

  constructor(
    child: SubchannelInterface,
    private readonly settings: () => HealthCheckSettings | undefined,
  ) {
    super(child);
    child.addConnectivityStateListener(this.onState);
    if (child.getConnectivityState() === grpc.connectivityState.READY) this.schedule(0);
  }

  /** The grpc-js subchannel under the wrapper (pickers hand this one to the channel). */
  unwrap(): SubchannelInterface {
    return this.child;
  }

  /** A call routed here has ended: one that ran out of its deadline takes the endpoint out of the rotation. */
  callEnded(code: grpc.status): void {
    if (code !== grpc.status.DEADLINE_EXCEEDED || this.ejected || this.stopped) return;
    this.ejected = true;
    this.setHealthy(false);
    // A health check in flight would answer SERVING and bring it back: from now on the check is a Validate probe.
    this.cancel();
    this.schedule(this.settings()?.intervalMs ?? 0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.timer || this.call) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.check();
    }, delayMs);
    // A background poll that no caller waits for: it must not keep the process alive.
    this.timer.unref();
  }

  private check(): void {
    const settings = this.settings();
    if (this.stopped || !settings || this.child.getConnectivityState() !== grpc.connectivityState.READY) return;
    if (this.ejected) {
      this.probe(settings);
      return;
    }
    const Health = healthClientConstructor();
    // The override makes the check travel over this subchannel's own connection, with its credentials.
    this.client ??= new Health('unused', grpc.credentials.createInsecure(), {
      channelOverride: this.child.getChannel(),
    });
    const call = this.client.Check(
      { service: settings.serviceName },
      new grpc.Metadata(),
      { deadline: Date.now() + settings.timeoutMs },
      (err, response) => {
        // A cancelled check (the endpoint was ejected, or its connection changed) has been replaced.
        if (this.call !== call) return;
        this.call = undefined;
        if (this.stopped) return;
        // A server without the health service cannot be checked; trust it (gRFC A17 does the same).
        this.setHealthy(err ? err.code === grpc.status.UNIMPLEMENTED : response?.status === 'SERVING');
        this.schedule(settings.intervalMs);
      },
    );
    this.call = call;
  }

  /** The check of an ejected endpoint: a Validate call over its own connection; any answer brings it back. */
  private probe(settings: HealthCheckSettings): void {
    const Parser = parserClientConstructor();
    this.parser ??= new Parser('unused', grpc.credentials.createInsecure(), {
      channelOverride: this.child.getChannel(),
    });
    const call = this.parser.Validate(
      { source: ENDPOINT_PROBE_SOURCE, filename: ENDPOINT_PROBE_FILENAME },
      new grpc.Metadata(),
      { deadline: Date.now() + settings.timeoutMs },
      (err) => {
        if (this.call !== call) return;
        this.call = undefined;
        if (this.stopped || !this.ejected) return;
        if (err && NO_ANSWER.has(err.code)) {
          this.schedule(settings.intervalMs);
          return;
        }
        // The parser answers again: back in the rotation once the health check agrees.
        this.ejected = false;
        this.schedule(0);
      },
    );
    this.call = call;
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const call = this.call;
    this.call = undefined;
    call?.cancel();
  }

  protected override destroy(): void {
    this.stopped = true;
    this.cancel();
    this.child.removeConnectivityStateListener(this.onState);
    this.client?.close();
    this.client = undefined;
    this.parser?.close();
    this.parser = undefined;
    super.destroy();
  }
}

/** Hands grpc-js the real subchannel of a pick, as wrapping policies must, and tells the wrapper how the call ended. */
class UnwrappingPicker implements experimental.Picker {
  constructor(private readonly inner: experimental.Picker) {}

  pick(args: experimental.PickArgs): experimental.PickResult {
    const result = this.inner.pick(args);
    if (
      result.pickResultType === experimental.PickResultType.COMPLETE &&
      result.subchannel instanceof HealthCheckedSubchannel
    ) {
      const wrapper = result.subchannel;
      const next = result.onCallEnded;
      return {
        ...result,
        subchannel: wrapper.unwrap(),
        onCallEnded: (code, details, metadata) => {
          wrapper.callEnded(code);
          next?.(code, details, metadata);
        },
      };
    }
    return result;
  }
}

class HealthCheckedBalancer implements experimental.LoadBalancer {
  private readonly child: experimental.ChildLoadBalancerHandler;
  private config: HealthCheckedConfig | undefined;

  constructor(helper: ChannelControlHelper) {
    this.child = new experimental.ChildLoadBalancerHandler(
      experimental.createChildChannelControlHelper(helper, {
        createSubchannel: (address, args) =>
          new HealthCheckedSubchannel(helper.createSubchannel(address, args), () => this.config?.settings),
        updateState: (state, picker, error) => helper.updateState(state, new UnwrappingPicker(picker), error),
      }),
    );
  }

  updateAddressList(
    endpoints: StatusOr<Endpoint[]>,
    config: TypedLoadBalancingConfig,
    options: grpc.ChannelOptions,
    note: string,
  ): boolean {
    if (!(config instanceof HealthCheckedConfig)) return false;
    this.config = config;
    return this.child.updateAddressList(endpoints, config.child, options, note);
  }

  exitIdle(): void {
    this.child.exitIdle();
  }

  resetBackoff(): void {
    this.child.resetBackoff();
  }

  destroy(): void {
    this.child.destroy();
  }

  getTypeName(): string {
    return HEALTH_CHECKED_POLICY;
  }
}

/** `avap-hosts:a:1,b:2` — grpc-js's DNS resolver for each host, the union of their addresses. */
class HostListResolver implements experimental.Resolver {
  private readonly children: experimental.Resolver[];
  private readonly latest: (StatusOr<Endpoint[]> | undefined)[];

  constructor(
    target: experimental.GrpcUri,
    private readonly listener: experimental.ResolverListener,
    options: grpc.ChannelOptions,
  ) {
    const hosts = target.path.split(',').filter(Boolean);
    this.latest = hosts.map(() => undefined);
    this.children = hosts.map((host, index) =>
      experimental.createResolver(
        { scheme: 'dns', path: host },
        (endpoints) => {
          this.latest[index] = endpoints;
          this.report();
          return true;
        },
        options,
      ),
    );
  }

  private report(): void {
    const reported = this.latest.filter((r): r is StatusOr<Endpoint[]> => r !== undefined);
    const resolved = reported.flatMap((r) => (r.ok ? r.value : []));
    const failures = reported.flatMap((r) => (r.ok ? [] : [r.error.details]));
    const note = failures.length ? `unresolved: ${failures.join('; ')}` : '';
    if (resolved.length > 0 || reported.length < this.latest.length) {
      this.listener(experimental.statusOrFromValue(resolved), {}, null, note);
      return;
    }
    const first = reported.find((r) => !r.ok);
    if (first && !first.ok) this.listener(experimental.statusOrFromError(first.error), {}, null, note);
  }

  updateResolution(): void {
    for (const child of this.children) child.updateResolution();
  }

  destroy(): void {
    for (const child of this.children) child.destroy();
  }

  static getDefaultAuthority(target: experimental.GrpcUri): string {
    return target.path.split(',')[0] ?? target.path;
  }
}

let registered = false;

/** Registers the policy and the host-list scheme with grpc-js (once per process). */
function registerBalancing(): void {
  if (registered) return;
  registered = true;
  experimental.registerLoadBalancerType(HEALTH_CHECKED_POLICY, HealthCheckedBalancer, HealthCheckedConfig);
  experimental.registerResolver(HOST_LIST_SCHEME, HostListResolver);
}

/** Channel options that balance round-robin over every resolved address, health-checked. */
export function balancedChannelOptions(settings: HealthCheckSettings): grpc.ChannelOptions {
  registerBalancing();
  return {
    'grpc.service_config': JSON.stringify({
      loadBalancingConfig: [{ [HEALTH_CHECKED_POLICY]: { ...settings, childPolicy: [{ round_robin: {} }] } }],
    }),
    // The service config is ours; do not look for one in DNS TXT records.
    'grpc.service_config_disable_resolution': 1,
  };
}
