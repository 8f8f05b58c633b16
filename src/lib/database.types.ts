// Written by `npm run db:types` from the migrated database (local/db/database-types.ts); do not edit.
// tests/sql/database-types.test.ts fails when it is not what supabase/migrations makes.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  __InternalSupabase: {
    PostgrestVersion: "12"
  }
  public: {
    Tables: {
      ad_tags: {
        Row: {
          ad_id: string
          tag_id: string
          ad_created_at: string
        }
        Insert: {
          ad_id: string
          tag_id: string
          ad_created_at: string
        }
        Update: {
          ad_id?: string
          tag_id?: string
          ad_created_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "ad_tags_ad_id_fkey"
            columns: ["ad_id"]
            isOneToOne: false
            referencedRelation: "ads"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ad_tags_tag_id_fkey"
            columns: ["tag_id"]
            isOneToOne: false
            referencedRelation: "tags"
            referencedColumns: ["id"]
          },
        ]
      }
      admin_users: {
        Row: {
          user_id: string
          granted_at: string
        }
        Insert: {
          user_id: string
          granted_at?: string
        }
        Update: {
          user_id?: string
          granted_at?: string
        }
        Relationships: []
      }
      ads: {
        Row: {
          id: string
          brand_id: string
          category_id: string
          type_id: string | null
          created_at: string
          requires_subscription: boolean
          is_black_friday: boolean
          is_top_picks: boolean
          original_path: string
          display_480_path: string
          display_960_path: string
          preview_path: string
          width: number
          height: number
          thumbhash: string
          card: Json
          free_sample: boolean
          free_sample_since: string | null
          platforms: string[] | null
          placement: string | null
          format: string | null
          first_seen: string | null
          last_seen: string | null
          still_running: boolean
          landing_url: string | null
          primary_text: string | null
          headline: string | null
          call_to_action: string | null
          offer: string | null
          hook_id: string | null
          language: string | null
          country: string | null
          image_text: string | null
          search_text: string
          search_vector: unknown
          visual_hash: number | null
          colour_histogram: number[] | null
          dominant_colours: Json | null
          visual_vector: unknown | null
          colour_point: unknown | null
          colour_swatches: string[] | null
          near_duplicate_of: string | null
          video_path: string | null
          video_duration_ms: number | null
          running_days_key: number
          last_seen_key: string
        }
        Insert: {
          id?: string
          brand_id: string
          category_id: string
          type_id?: string | null
          created_at?: string
          requires_subscription?: boolean
          is_black_friday?: boolean
          is_top_picks?: boolean
          original_path: string
          display_480_path: string
          display_960_path: string
          preview_path: string
          width: number
          height: number
          thumbhash: string
          card: Json
          free_sample?: boolean
          free_sample_since?: string | null
          platforms?: string[] | null
          placement?: string | null
          format?: string | null
          first_seen?: string | null
          last_seen?: string | null
          still_running?: boolean
          landing_url?: string | null
          primary_text?: string | null
          headline?: string | null
          call_to_action?: string | null
          offer?: string | null
          hook_id?: string | null
          language?: string | null
          country?: string | null
          image_text?: string | null
          search_text?: string
          search_vector?: unknown
          visual_hash?: number | string | null
          colour_histogram?: number[] | null
          dominant_colours?: Json | null
          visual_vector?: unknown | null
          colour_point?: unknown | null
          colour_swatches?: string[] | null
          near_duplicate_of?: string | null
          video_path?: string | null
          video_duration_ms?: number | null
          running_days_key?: number
          last_seen_key?: string
        }
        Update: {
          id?: string
          brand_id?: string
          category_id?: string
          type_id?: string | null
          created_at?: string
          requires_subscription?: boolean
          is_black_friday?: boolean
          is_top_picks?: boolean
          original_path?: string
          display_480_path?: string
          display_960_path?: string
          preview_path?: string
          width?: number
          height?: number
          thumbhash?: string
          card?: Json
          free_sample?: boolean
          free_sample_since?: string | null
          platforms?: string[] | null
          placement?: string | null
          format?: string | null
          first_seen?: string | null
          last_seen?: string | null
          still_running?: boolean
          landing_url?: string | null
          primary_text?: string | null
          headline?: string | null
          call_to_action?: string | null
          offer?: string | null
          hook_id?: string | null
          language?: string | null
          country?: string | null
          image_text?: string | null
          search_text?: string
          search_vector?: unknown
          visual_hash?: number | string | null
          colour_histogram?: number[] | null
          dominant_colours?: Json | null
          visual_vector?: unknown | null
          colour_point?: unknown | null
          colour_swatches?: string[] | null
          near_duplicate_of?: string | null
          video_path?: string | null
          video_duration_ms?: number | null
          running_days_key?: number
          last_seen_key?: string
        }
        Relationships: [
          {
            foreignKeyName: "ads_brand_id_fkey"
            columns: ["brand_id"]
            isOneToOne: false
            referencedRelation: "brands"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ads_category_id_fkey"
            columns: ["category_id"]
            isOneToOne: false
            referencedRelation: "categories"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ads_hook_id_fkey"
            columns: ["hook_id"]
            isOneToOne: false
            referencedRelation: "hooks"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "ads_type_id_fkey"
            columns: ["type_id"]
            isOneToOne: false
            referencedRelation: "types"
            referencedColumns: ["id"]
          },
        ]
      }
      billing_customers: {
        Row: {
          user_id: string
          stripe_customer_id: string
          created_at: string
        }
        Insert: {
          user_id: string
          stripe_customer_id: string
          created_at?: string
        }
        Update: {
          user_id?: string
          stripe_customer_id?: string
          created_at?: string
        }
        Relationships: []
      }
      brands: {
        Row: {
          id: string
          name: string
          logo_path: string | null
          created_at: string
        }
        Insert: {
          id?: string
          name: string
          logo_path?: string | null
          created_at?: string
        }
        Update: {
          id?: string
          name?: string
          logo_path?: string | null
          created_at?: string
        }
        Relationships: []
      }
      categories: {
        Row: {
          id: string
          name: string
          created_at: string
        }
        Insert: {
          id?: string
          name: string
          created_at?: string
        }
        Update: {
          id?: string
          name?: string
          created_at?: string
        }
        Relationships: []
      }
      hooks: {
        Row: {
          id: string
          name: string
          created_at: string
        }
        Insert: {
          id?: string
          name: string
          created_at?: string
        }
        Update: {
          id?: string
          name?: string
          created_at?: string
        }
        Relationships: []
      }
      page_banners: {
        Row: {
          page: string
          image_path: string
          updated_at: string
        }
        Insert: {
          page: string
          image_path: string
          updated_at?: string
        }
        Update: {
          page?: string
          image_path?: string
          updated_at?: string
        }
        Relationships: []
      }
      processed_webhook_events: {
        Row: {
          event_id: string
          type: string
          processed_at: string
        }
        Insert: {
          event_id: string
          type: string
          processed_at?: string
        }
        Update: {
          event_id?: string
          type?: string
          processed_at?: string
        }
        Relationships: []
      }
      profiles: {
        Row: {
          user_id: string
          full_name: string | null
          avatar_url: string | null
          black_friday_access: boolean
          created_at: string
          updated_at: string
        }
        Insert: {
          user_id: string
          full_name?: string | null
          avatar_url?: string | null
          black_friday_access?: boolean
          created_at?: string
          updated_at?: string
        }
        Update: {
          user_id?: string
          full_name?: string | null
          avatar_url?: string | null
          black_friday_access?: boolean
          created_at?: string
          updated_at?: string
        }
        Relationships: []
      }
      storage_deletions: {
        Row: {
          id: number
          bucket_id: string
          name: string
          queued_at: string
        }
        Insert: {
          id?: number | string
          bucket_id: string
          name: string
          queued_at?: string
        }
        Update: {
          id?: number | string
          bucket_id?: string
          name?: string
          queued_at?: string
        }
        Relationships: []
      }
      subscription_holders: {
        Row: {
          kind: string
          holder: string
          user_id: string | null
          first_subscription_id: string
          first_seen_at: string
        }
        Insert: {
          kind: string
          holder: string
          user_id?: string | null
          first_subscription_id: string
          first_seen_at?: string
        }
        Update: {
          kind?: string
          holder?: string
          user_id?: string | null
          first_subscription_id?: string
          first_seen_at?: string
        }
        Relationships: []
      }
      subscriptions: {
        Row: {
          id: string
          user_id: string
          stripe_customer_id: string
          stripe_subscription_id: string
          status: string
          tier: string
          price_id: string
          current_period_end: string | null
          cancel_at_period_end: boolean
          trial_end: string | null
          stripe_event_created: number
          created_at: string
          updated_at: string
        }
        Insert: {
          id?: string
          user_id: string
          stripe_customer_id: string
          stripe_subscription_id: string
          status: string
          tier: string
          price_id: string
          current_period_end?: string | null
          cancel_at_period_end?: boolean
          trial_end?: string | null
          stripe_event_created?: number | string
          created_at?: string
          updated_at?: string
        }
        Update: {
          id?: string
          user_id?: string
          stripe_customer_id?: string
          stripe_subscription_id?: string
          status?: string
          tier?: string
          price_id?: string
          current_period_end?: string | null
          cancel_at_period_end?: boolean
          trial_end?: string | null
          stripe_event_created?: number | string
          created_at?: string
          updated_at?: string
        }
        Relationships: []
      }
      tags: {
        Row: {
          id: string
          name: string
          system_key: string | null
          created_at: string
        }
        Insert: {
          id?: string
          name: string
          system_key?: string | null
          created_at?: string
        }
        Update: {
          id?: string
          name?: string
          system_key?: string | null
          created_at?: string
        }
        Relationships: []
      }
      types: {
        Row: {
          id: string
          name: string
          created_at: string
        }
        Insert: {
          id?: string
          name: string
          created_at?: string
        }
        Update: {
          id?: string
          name?: string
          created_at?: string
        }
        Relationships: []
      }
      user_collection_items: {
        Row: {
          collection_id: string
          ad_id: string
          saved_at: string
        }
        Insert: {
          collection_id: string
          ad_id: string
          saved_at?: string
        }
        Update: {
          collection_id?: string
          ad_id?: string
          saved_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "user_collection_items_ad_id_fkey"
            columns: ["ad_id"]
            isOneToOne: false
            referencedRelation: "ads"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "user_collection_items_collection_id_fkey"
            columns: ["collection_id"]
            isOneToOne: false
            referencedRelation: "user_collections"
            referencedColumns: ["id"]
          },
        ]
      }
      user_collections: {
        Row: {
          id: string
          user_id: string
          name: string
          parent_id: string | null
          is_system: boolean
          slug: string | null
          created_at: string
          updated_at: string
        }
        Insert: {
          id?: string
          user_id?: string
          name: string
          parent_id?: string | null
          is_system?: boolean
          slug?: string | null
          created_at?: string
          updated_at?: string
        }
        Update: {
          id?: string
          user_id?: string
          name?: string
          parent_id?: string | null
          is_system?: boolean
          slug?: string | null
          created_at?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "user_collections_parent_id_fkey"
            columns: ["parent_id"]
            isOneToOne: false
            referencedRelation: "user_collections"
            referencedColumns: ["id"]
          },
        ]
      }
    }
    Views: {
      ads_with_flags: {
        Row: {
          id: string | null
          brand_id: string | null
          category_id: string | null
          type_id: string | null
          created_at: string | null
          requires_subscription: boolean | null
          is_black_friday: boolean | null
          is_top_picks: boolean | null
          width: number | null
          height: number | null
          thumbhash: string | null
          preview_path: string | null
          brand_name: string | null
          brand_logo_path: string | null
          category_name: string | null
          type_name: string | null
          tag_names: string[] | null
        }
        Relationships: []
      }
      v_user_collection_ads: {
        Row: {
          collection_id: string | null
          ad_id: string | null
          saved_at: string | null
          brand_id: string | null
          brand_name: string | null
          brand_logo_path: string | null
          category_id: string | null
          category_name: string | null
          created_at: string | null
          requires_subscription: boolean | null
          is_black_friday: boolean | null
          width: number | null
          height: number | null
          thumbhash: string | null
          preview_path: string | null
        }
        Relationships: []
      }
    }
    Functions: {
      admin_ad_facts: {
        Args: {
          p_ids: string[]
        }
        Returns: {
          id: string
          platforms: string[]
          placement: string
          format: string
          first_seen: string
          last_seen: string
          still_running: boolean
          landing_url: string
          primary_text: string
          headline: string
          call_to_action: string
          offer: string
          hook_id: string
          hook_name: string
          language: string
          country: string
        }[]
      }
      admin_ad_images: {
        Args: {
          p_ids: string[]
        }
        Returns: Json
      }
      admin_ads_without_fingerprint: {
        Args: {
          p_after_created_at?: string | null
          p_after_id?: string | null
          p_limit?: number
        }
        Returns: Json
      }
      admin_ads_without_image_text: {
        Args: {
          p_after_created_at?: string | null
          p_after_id?: string | null
          p_limit?: number
        }
        Returns: Json
      }
      admin_delete_ads: {
        Args: {
          p_ids: string[]
        }
        Returns: {
          id: string
          ok: boolean
          error: string
        }[]
      }
      admin_import_ad_facts: {
        Args: {
          p_rows: Json
        }
        Returns: Json
      }
      admin_near_duplicate_groups: {
        Args: {
          p_page?: number
        }
        Returns: Json
      }
      admin_near_duplicates: {
        Args: {
          p_hash: number | string
          p_histogram: number[]
        }
        Returns: Json
      }
      admin_set_black_friday_access: {
        Args: {
          p_user_id: string
          p_access: boolean
        }
        Returns: undefined
      }
      admin_set_fingerprints: {
        Args: {
          p_fingerprints: Json
        }
        Returns: number
      }
      admin_set_image_texts: {
        Args: {
          p_texts: Json
        }
        Returns: number
      }
      admin_update_ads: {
        Args: {
          p_ids: string[]
          p_brand_id?: string | null
          p_category_id?: string | null
          p_type_mode?: string
          p_type_id?: string | null
          p_add_tag_ids?: string[]
          p_remove_tag_ids?: string[]
          p_facts?: Json | null
        }
        Returns: {
          id: string
          ok: boolean
          error: string
        }[]
      }
      apply_stripe_event: {
        Args: {
          p_event_id: string
          p_event_type: string
          p_event_created: number | string
          p_subscription: Json
        }
        Returns: string
      }
      delete_board: {
        Args: {
          p_id: string
          p_move_children_up: boolean
        }
        Returns: string[]
      }
      get_ad: {
        Args: {
          p_id: string
        }
        Returns: Json
      }
      get_ad_neighbours: {
        Args: {
          p_id: string
        }
        Returns: Json
      }
      get_ad_original_download: {
        Args: {
          p_id: string
        }
        Returns: Json
      }
      get_ads_admin: {
        Args: {
          p_limit?: number
          p_offset?: number
          p_search?: string | null
          p_brand?: string | null
          p_category?: string | null
          p_type?: string | null
          p_tag_ids?: string[] | null
          p_date_from?: string | null
          p_date_to?: string | null
          p_sort?: string
        }
        Returns: {
          id: string
          brand_id: string
          brand_name: string
          brand_logo_path: string
          category_id: string
          category_name: string
          type_id: string
          type_name: string
          tag_ids: string[]
          tag_names: string[]
          created_at: string
          requires_subscription: boolean
          is_black_friday: boolean
          is_top_picks: boolean
          width: number
          height: number
          thumbhash: string
          preview_path: string
          display_480_path: string
          display_960_path: string
          original_path: string
          total_count: number
        }[]
      }
      get_or_create_favorites_id: {
        Args: never
        Returns: string
      }
      has_valid_access: {
        Args: never
        Returns: boolean
      }
      is_admin: {
        Args: never
        Returns: boolean
      }
      link_billing_customer: {
        Args: {
          p_user_id: string
          p_stripe_customer_id: string
        }
        Returns: string
      }
      list_ad_locales: {
        Args: never
        Returns: Json
      }
      list_ads: {
        Args: {
          p_query?: Json
        }
        Returns: Json
      }
      list_collection_ads: {
        Args: {
          p_collection_id: string
          p_cursor?: string | null
        }
        Returns: Json
      }
      record_subscription_holders: {
        Args: {
          p_user_id: string
          p_stripe_customer_id: string
          p_card_fingerprint: string
          p_stripe_subscription_id: string
        }
        Returns: boolean
      }
      save_ad_boards: {
        Args: {
          p_ad_id: string
          p_add?: string[]
          p_remove?: string[]
        }
        Returns: string[]
      }
      similar_ads: {
        Args: {
          p_id: string
        }
        Returns: Json
      }
      tag_ads_of_day: {
        Args: {
          p_day?: string | null
        }
        Returns: Json
      }
      take_coupon_preview: {
        Args: {
          p_user_id: string
          p_address: string
        }
        Returns: number
      }
      trial_available: {
        Args: never
        Returns: boolean
      }
      trial_available_for: {
        Args: {
          p_user_id: string
          p_stripe_customer_id: string
        }
        Returns: boolean
      }
    }
    Enums: {
        [_ in never]: never
      }
    CompositeTypes: {
        [_ in never]: never
      }
  }
}

type PublicSchema = Database['public']

export type Tables<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Row']
export type TablesInsert<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Insert']
export type TablesUpdate<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Update']
export type Views<T extends keyof PublicSchema['Views']> = PublicSchema['Views'][T]['Row']
export type FunctionArgs<T extends keyof PublicSchema['Functions']> = PublicSchema['Functions'][T]['Args']
export type FunctionReturns<T extends keyof PublicSchema['Functions']> = PublicSchema['Functions'][T]['Returns']
