import { Alert, Autocomplete, Badge, Button, Checkbox, Grid, Group, Stack, Table, Text, TextInput } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { CheckStatus, SttValidationResult } from '../../../src-shared/schemas/providers'
import { type Column, ListTable } from '../../components/list-table'
import { errorCode, Fields, NeedsRole, Section } from '../../components/section'
import type { SttCatalogEntry } from '../../lib/api-types'
import { useTRPC } from '../../lib/trpc'

const STATUS_COLOR: Record<CheckStatus, string> = { pass: 'green', fail: 'red', skipped: 'gray', unverified: 'yellow' }
const CHECK_LABEL: Record<string, string> = {
  provider_known: 'Provider known',
  provider_type_is_stt: 'Provider type is STT',
  model_available: 'Model available',
  api_key_present: 'API key present',
  api_key_well_formed: 'API key well formed',
  api_key_accepted: 'API key accepted by the provider',
}

const CHECK_COLUMNS: Column[] = [{ label: 'Check', w: 230 }, { label: 'Outcome', w: 110 }, { label: 'Reason' }]

function Result({ r, onSuggestion }: { r: SttValidationResult; onSuggestion: (value: string) => void }) {
  const modelFailed = r.checks.some((c) => c.name === 'model_available' && c.status === 'fail')
  return (
    <Stack gap="sm" data-testid="stt-result">
      <Group gap="xs">
        <Badge size="lg" color={r.valid ? 'green' : 'red'} data-testid="stt-valid">
          {r.valid ? 'valid' : 'not valid'}
        </Badge>
        <Badge size="lg" color="gray" variant="outline" data-testid="stt-mode">
          {r.mode}
        </Badge>
        <Text size="sm" c="dimmed" data-testid="stt-latency">
          took {r.latency_ms} ms
        </Text>
        {!r.verified && r.mode === 'offline' && (
          <Text size="xs" c="dimmed">
            Offline checks cannot prove the key works: enable “Ask the provider” for that.
          </Text>
        )}
      </Group>
      <ListTable
        testId="stt-checks"
        columns={CHECK_COLUMNS}
        rows={r.checks}
        rowKey={(c) => c.name}
        rowProps={(c) => ({ 'data-testid': `check-${c.name}`, 'data-status': c.status })}
        cells={(c) => (
          <>
            <Table.Td>{CHECK_LABEL[c.name] ?? c.name}</Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLOR[c.status]}>{c.status}</Badge>
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {c.reason}
                {c.latency_ms !== undefined ? ` (${c.latency_ms} ms)` : ''}
              </Text>
            </Table.Td>
          </>
        )}
      />
      {r.suggestions && r.suggestions.length > 0 && (
        <Alert color="blue" variant="light" title="Did you mean" data-testid="stt-suggestions">
          <Group gap={6}>
            {r.suggestions.map((s) => (
              <Button key={s} size="compact-xs" variant="default" onClick={() => onSuggestion(s)}>
                {s}
              </Button>
            ))}
          </Group>
          <Text size="xs" c="dimmed" mt={6}>
            Click one to use it as the {modelFailed ? 'model' : 'provider'}.
          </Text>
        </Alert>
      )}
      {r.model_info && (
        <Fields
          rows={[
            ['Model', `${r.model_info.display_name} (${r.model_info.id})`],
            ['Modes', [r.model_info.streaming && 'streaming', r.model_info.batch && 'batch'].filter(Boolean).join(', ')],
            ['Languages', r.model_info.languages.join(', ')],
            ['Price', r.model_info.price_per_minute_usd === null ? '—' : `$${r.model_info.price_per_minute_usd} per minute`],
          ]}
        />
      )}
    </Stack>
  )
}

/** POST /admin/providers/validate/stt as a form. */
export function SttValidation({ catalog }: { catalog: SttCatalogEntry[] }) {
  const trpc = useTRPC()
  const [provider, setProvider] = useState(catalog[0]?.id ?? '')
  const [providerType, setProviderType] = useState('stt')
  const [model, setModel] = useState(catalog[0]?.models[0]?.id ?? '')
  const [voiceId, setVoiceId] = useState('')
  const [online, setOnline] = useState(false)
  const validate = useMutation(trpc.providers.validateStt.mutationOptions())
  const models = catalog.find((p) => p.id === provider)?.models ?? []
  const submit = (event: FormEvent) => {
    event.preventDefault()
    validate.mutate({ provider, provider_type: providerType, model, voice_id: voiceId || undefined, online })
  }
  const onSuggestion = (value: string) => {
    const modelFailed = validate.data?.checks.some((c) => c.name === 'model_available' && c.status === 'fail')
    if (modelFailed) setModel(value)
    else setProvider(value)
  }
  return (
    <Grid gap="sm">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Section title="Configuration">
          <form onSubmit={submit} data-testid="stt-form">
            <Stack gap="xs">
              <Autocomplete label="Provider" data={catalog.map((p) => p.id)} value={provider} onChange={setProvider} required data-testid="stt-provider" />
              <TextInput label="Provider type" value={providerType} onChange={(e) => setProviderType(e.currentTarget.value)} data-testid="stt-provider-type" />
              <Autocomplete label="Model" data={models.map((m) => m.id)} value={model} onChange={setModel} required data-testid="stt-model" />
              <TextInput label="Voice id" description="Accepted and ignored: speech-to-text has no voice" value={voiceId} onChange={(e) => setVoiceId(e.currentTarget.value)} />
              <Checkbox
                label="Ask the provider whether it accepts the key"
                description="One cheap authenticated request"
                checked={online}
                onChange={(e) => setOnline(e.currentTarget.checked)}
                data-testid="stt-online"
              />
              <Group>
                <Button type="submit" loading={validate.isPending} data-testid="stt-submit">
                  Validate
                </Button>
              </Group>
            </Stack>
          </form>
        </Section>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Section title="Result">
          {errorCode(validate.error) === 'FORBIDDEN' ? (
            <NeedsRole what="Validating a provider" />
          ) : validate.error ? (
            <Alert color="red" title="Could not validate">
              {validate.error.message}
            </Alert>
          ) : validate.data ? (
            <Result r={validate.data} onSuggestion={onSuggestion} />
          ) : (
            <Text c="dimmed" size="sm" py="lg">
              Fill in the configuration an agent would use and press Validate. Offline checks look at the catalog and the
              stored key; the online check asks the provider.
            </Text>
          )}
        </Section>
      </Grid.Col>
    </Grid>
  )
}
