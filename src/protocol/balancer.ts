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
 */
import * as grpc from '@grpc/grpc-js';
import { experimental } from '@grpc/grpc-js';
import { healthClientConstructor, type HealthClient } from './health';
import { HOST_LIST_SCHEME } from './parserUrl';

type SubchannelInterface = experimental.SubchannelInterface;
type ChannelControlHelper = experimental.ChannelControlHelper;
type TypedLoadBalancingConfig = experimental.TypedLoadBalancingConfig;
type Endpoint = experimental.Endpoint;
type StatusOr<T> = experimental.StatusOr<T>;

export const HEALTH_CHECKED_POLICY = 'avap_health_checked';

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

/** A subchannel that polls the health service over its own connection while it is READY. */
class HealthCheckedSubchannel extends experimental.BaseSubchannelWrapper {
  private client: HealthClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private call: grpc.ClientUnaryCall | undefined;
  private stopped = false;
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

  private schedule(delayMs: number): void {
    if (this.stopped || this.timer || this.call) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.check();
    }, delayMs);
    this.timer.unref();
  }

  private check(): void {
    const settings = this.settings();
    if (this.stopped || !settings || this.child.getConnectivityState() !== grpc.connectivityState.READY) return;
    const Health = healthClientConstructor();
    // The override makes the check travel over this subchannel's own connection, with its credentials.
    this.client ??= new Health('unused', grpc.credentials.createInsecure(), {
      channelOverride: this.child.getChannel(),
    });
    this.call = this.client.Check(
      { service: settings.serviceName },
      new grpc.Metadata(),
      { deadline: Date.now() + settings.timeoutMs },
      (err, response) => {
        this.call = undefined;
        if (this.stopped) return;
        // A server without the health service cannot be checked; trust it (gRFC A17 does the same).
        this.setHealthy(err ? err.code === grpc.status.UNIMPLEMENTED : response?.status === 'SERVING');
        this.schedule(settings.intervalMs);
      },
    );
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
    super.destroy();
  }
}

/** Hands grpc-js the real subchannel of a pick, as wrapping policies must. */
class UnwrappingPicker implements experimental.Picker {
  constructor(private readonly inner: experimental.Picker) {}

  pick(args: experimental.PickArgs): experimental.PickResult {
    const result = this.inner.pick(args);
    if (
      result.pickResultType === experimental.PickResultType.COMPLETE &&
      result.subchannel instanceof HealthCheckedSubchannel
    ) {
      return { ...result, subchannel: result.subchannel.unwrap() };
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
export function registerBalancing(): void {
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
