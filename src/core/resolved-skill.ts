/** A skill a step's agent gets: its name and the folder (holding its SKILL.md) copied into the CLI's skills folder. */
export interface ResolvedSkill {
  readonly name: string;
  /** Absolute: `skills/<name>` or `.agents/skills/<name>` beside wave.yaml, whichever holds the skill first. */
  readonly folder: string;
}
